# kimi-ext developer commands. Every target installs what it needs into .venv first,
# so a fresh clone needs only python3 (3.11+) and make.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: install test test-fast test-httpx-oldest generate check-generated lint format docs bench demo clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## The README's test command: the whole suite, with coverage of kimi_ext, in $(WORKERS)
## parallel workers (pytest-xdist; most tests wait on sockets and subprocesses, so more
## workers than cores pay off: 4 on a 2-core machine). A page of docs blocks, and the Ray
## tests, each run in one worker (--dist loadgroup, the xdist_group marks).
## make test-fast: the same without the tests marked slow (Ray, the benchmarks, pytest
## and the generator in subprocesses, hundreds of streams), for the edit-test loop.
WORKERS ?= 4
PARALLEL := -n $(WORKERS) --dist loadgroup

test: $(STAMP)
	$(BIN)/python -m pytest $(PARALLEL) --cov=kimi_ext --cov-report=term-missing:skip-covered

test-fast: $(STAMP)
	$(BIN)/python -m pytest $(PARALLEL) -m "not slow"

## The transport tests (sending, retries, streaming, deadlines, hostile servers) against the
## oldest httpx that pyproject.toml allows (`make test` runs them on the newest), in a venv
## of their own: the package, httpx and httpcore at the floor, and the test tools only.
HTTPX_OLDEST    ?= 0.27.0
HTTPCORE_OLDEST ?= 1.0.0
OLD_VENV        := .venv-httpx-oldest
OLD_STAMP       := $(OLD_VENV)/.installed-$(HTTPX_OLDEST)
TRANSPORT_TESTS := tests/client tests/_core/transport tests/_core/streaming \
	tests/chat tests/messages tests/responses tests/quality/test_hostile.py \
	tests/quality/test_fault_matrix.py tests/quality/test_accumulator_properties.py \
	tests/structured tests/images tests/usage tests/formats tests/_type_schema \
	tests/_core/model/test_odd_results.py tests/_core/model/test_result_fields.py \
	tests/_core/contract/test_rules_name_their_field.py \
	tests/_core/contract/test_effort_literal.py

$(OLD_STAMP): pyproject.toml
	test -x $(OLD_VENV)/bin/python || $(PYTHON) -m venv $(OLD_VENV)
	$(OLD_VENV)/bin/python -m pip install -q --disable-pip-version-check -e . \
		"httpx==$(HTTPX_OLDEST)" "httpcore==$(HTTPCORE_OLDEST)" \
		pytest pytest-asyncio pytest-httpserver hypothesis ruamel.yaml "pydantic>=2.5,<3"
	touch $(OLD_STAMP)

test-httpx-oldest: $(OLD_STAMP)
	$(OLD_VENV)/bin/python -c "import httpx, httpcore; \
		print('httpx', httpx.__version__, '/ httpcore', httpcore.__version__); \
		assert httpx.__version__ == '$(HTTPX_OLDEST)', httpx.__version__"
	$(OLD_VENV)/bin/python -m pytest -p no:cacheprovider $(TRANSPORT_TESTS)

## Regenerate generated/kimi_raw/{chat,messages,responses} from openapi/*.yaml.
## FORMATS="chat" regenerates only that format.
generate: $(STAMP)
	VENV_BIN=$(abspath $(BIN)) scripts/generate.sh $(abspath generated/kimi_raw) $(FORMATS)

## Fails when the committed generated code differs from a fresh generation.
check-generated: $(STAMP)
	VENV_BIN=$(abspath $(BIN)) scripts/check-generated.sh

lint: $(STAMP)
	$(BIN)/ruff check kimi_ext tests scripts $(wildcard benchmarks)
	$(BIN)/ruff format --check kimi_ext tests scripts $(wildcard benchmarks)
	$(BIN)/mypy --strict kimi_ext
	$(BIN)/lint-imports --no-cache
	$(BIN)/openapi-spec-validator openapi/chat.yaml openapi/messages.yaml openapi/responses.yaml

format: $(STAMP)
	$(BIN)/ruff check --fix kimi_ext tests scripts $(wildcard benchmarks)
	$(BIN)/ruff format kimi_ext tests scripts $(wildcard benchmarks)

## The documentation site (docs/, mkdocs.yml) into site/. --strict fails on any warning: a
## broken link, a page missing from the nav, a reference mkdocstrings cannot resolve.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

## Speed against bare httpx and the openai / anthropic SDKs (installs the bench extra).
bench: $(STAMP)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev,bench]'
	$(BIN)/python -m benchmarks

## The offline end-to-end demo: stand-in server + a scripted session in all three formats.
## LIVE=1 (with KIMI_API_KEY set) runs the same session against the real service.
## It installs only the package itself (its runtime dependencies), not the dev tools.
DEMO_STAMP := $(VENV)/.installed-demo

$(DEMO_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e .
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/python -m kimi_ext.demo $(if $(LIVE),--live,)

clean:
	rm -rf $(VENV) $(OLD_VENV) site .pytest_cache .mypy_cache .ruff_cache .coverage
