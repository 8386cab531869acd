# Annales — see README.md. Every target installs what it needs into ./.venv first.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_WORKERS ?= 2

.PHONY: install proto run demo test lint typecheck unit long bench clean soak fuzz

PROTOS := $(wildcard proto/annales/v1/*.proto)

$(STAMP): pyproject.toml $(PROTOS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	mkdir -p service/gen/annales/v1
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,web-test]"
	$(MAKE) proto
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Python stubs are generated from the protos, never edited by hand (service/gen is ignored).
proto:
	rm -rf service/gen && mkdir -p service/gen/annales/v1
	$(BIN)/python -m grpc_tools.protoc -Iproto --python_out=service/gen \
		--grpc_python_out=service/gen --pyi_out=service/gen $(PROTOS)
	touch service/gen/annales/__init__.py service/gen/annales/v1/__init__.py

install: $(STAMP)

run: $(STAMP)
	@echo "gRPC on 127.0.0.1:50051; web app and Connect API on http://127.0.0.1:$${WEB_PORT:-8080}/"
	$(BIN)/annales serve --host 127.0.0.1 --port 50051 --db data/annales.db --web-port $${WEB_PORT:-8080}

demo: $(STAMP)
	$(BIN)/annales demo --db data/annales.db --players 3 --seed demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not long"

test: lint typecheck unit

long: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m long

bench: $(STAMP)
	$(BIN)/python -m tests.bench.run

# 10 minutes of mixed traffic over 200 games on SQLite, then on PostgreSQL (tests/reliability/soak.py)
soak: $(STAMP)
	SOAK_SECONDS=$${SOAK_SECONDS:-600} SOAK_GAMES=$${SOAK_GAMES:-200} $(BIN)/python -m tests.reliability.soak --store both

# The API fuzzer with a larger budget (tests/fuzz; the normal run makes 10,000 + 1,000 cases;
# FUZZ_SEED=n explores other cases)
fuzz: $(STAMP)
	FUZZ_CASES=$${FUZZ_CASES:-100000} FUZZ_PG_CASES=$${FUZZ_PG_CASES:-10000} \
		$(BIN)/pytest -p no:cacheprovider -n 0 -s tests/fuzz

clean:
	rm -rf $(VENV) data .pytest_cache .mypy_cache .ruff_cache

# docs/cli.md is generated from the CLI itself (tests/clients/test_docs.py checks it is current)
.PHONY: docs
docs: $(STAMP)
	$(BIN)/python -m annales_cli.docgen > docs/cli.md
