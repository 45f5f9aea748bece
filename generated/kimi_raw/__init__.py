"""Raw clients generated from openapi/*.yaml. Do not edit: run `make generate`."""
