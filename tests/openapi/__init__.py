"""Tests of the specs themselves (openapi/*.yaml) and of the fixtures against them."""
