# maumau: `make lab` opens the course, `make test` runs every test, `make test-fast` the quick ones.
# Both create and fill .venv themselves on a fresh machine.

PY ?= python3
VENV = .venv
BIN = $(VENV)/bin
TMPHOME = $(CURDIR)/.tmp-home

# The course's languages: English is the source, German and Hungarian translations sit beside it in
# notebooks/de, exercises/de, ... (docs/howto/languages.md; `python -m maumau.course.translations check`).
TRANSLATIONS = de hu
NOTEBOOKS = $(wildcard notebooks/*.ipynb $(foreach l,$(TRANSLATIONS),notebooks/$(l)/*.ipynb))
EXERCISES = $(wildcard exercises/*.ipynb $(foreach l,$(TRANSLATIONS),exercises/$(l)/*.ipynb))
LINT_PATHS = $(wildcard maumau tests benchmarks lite setup.py)

# The test run writes nothing to the real home; hash order is fixed (kernels inherit it).
TEST_ENV = \
	PYTHONHASHSEED=0 \
	MAUMAU_LANG=en \
	HOME="$(TMPHOME)" \
	XDG_CONFIG_HOME="$(TMPHOME)/.config" \
	XDG_CACHE_HOME="$(TMPHOME)/.cache" \
	XDG_DATA_HOME="$(TMPHOME)/.local/share" \
	XDG_STATE_HOME="$(TMPHOME)/.local/state" \
	MPLCONFIGDIR="$(TMPHOME)/.config/matplotlib" \
	IPYTHONDIR="$(TMPHOME)/.ipython" \
	JUPYTER_PLATFORM_DIRS=1 \
	JUPYTER_CONFIG_DIR="$(TMPHOME)/.jupyter" \
	JUPYTER_DATA_DIR="$(TMPHOME)/.local/share/jupyter" \
	JUPYTER_RUNTIME_DIR="$(TMPHOME)/.local/share/jupyter/runtime"

.PHONY: all install build lab test test-fast bench bench-peers browser-test site site-test docs clean

all: test

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test,hub,env,lti]'
	touch $@

# JupyterLab 4.5+ sends widget messages over kernel subshells by default; a widget that a background
# thread redraws (mm.join's table) then loses clicks ("Unknown subshell_id" in the kernel), so the lab
# of this environment keeps comms on the main shell (maumau/classroom/overrides.d/maumau.json; docs/howto/class-table.md).
LAB_OVERRIDES = $(VENV)/share/jupyter/lab/settings/overrides.d/maumau.json

$(VENV)/.installed-lab: $(VENV)/.installed pyproject.toml maumau/classroom/overrides.d/maumau.json
	$(BIN)/python -m pip install -e '.[test,lab]'
	mkdir -p $(dir $(LAB_OVERRIDES)) && cp maumau/classroom/overrides.d/maumau.json $(LAB_OVERRIDES)
	touch $@

# The compiled engine and environments (setup.py): `pip install -e .` builds them; this rebuilds them in place
# after an edit of maumau/core/state.py, turn.py, playable.py, variants.py, of maumau/env/seen.py, actions.py,
# hand.py, aec_env.py, gym_env.py or their .pxd files (until then that package's sources run, with a warning).
build: $(VENV)/.installed
	rm -f maumau/core/*.so  # compiled modules of an older build sat beside the sources; now in _built/
	$(BIN)/python -W ignore setup.py --quiet build_ext --inplace

# Root (a Docker image, a VM, a lab machine) needs --allow-root; a normal user does not.
LAB_ROOT = $(if $(filter 0,$(shell id -u)),--allow-root,)

# The lab serves the course root (notebooks/, exercises/, student/, README.md, the rules) and opens
# notebook 01. exercises/ holds the instructor versions (solutions, hidden tests: whoever runs `make lab`
# from a clone is the teacher, and notebook 08 works on them); student/ is rewritten from them on each
# start with `maumau release`, so the teacher sees exactly what a learner gets, next to it.
#
# `make lab LANG=de` (or hu) opens the German (Hungarian) course: notebook 01 of notebooks/de, and
# every maumau screen and command in the lab (`maumau play` in its terminal too) speaks German
# (MAUMAU_LANG). Without LANG= the language of the teacher's locale is taken when the course has it
# (de_DE.UTF-8: German), else English. A bare LANG=de is no locale: the lab runs under C.UTF-8 then.
COURSE_LANG = $(or $(filter $(TRANSLATIONS),$(firstword $(subst _, ,$(subst ., ,$(LANG))))),en)
COURSE_DIR = notebooks$(if $(filter en,$(COURSE_LANG)),,/$(COURSE_LANG))
LAB_URL = /lab/tree/$(COURSE_DIR)/01_start_here.ipynb
LAB_LOCALE = $(if $(filter en de hu,$(LANG)),C.UTF-8,$(LANG))

lab: $(VENV)/.installed-lab build
	$(BIN)/maumau release exercises/ --out student/
	$(if $(LAB_LOCALE),LANG="$(LAB_LOCALE)") MAUMAU_LANG=$(COURSE_LANG) $(BIN)/jupyter lab $(LAB_ROOT) --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=$(LAB_URL)

# The JupyterHub test (tests/classroom/test_hub.py) needs configurable-http-proxy, JupyterHub's proxy, from npm:
# into .venv/chp, pinned (a later release may want a newer Node.js).
CHP = $(VENV)/chp/node_modules/.bin/configurable-http-proxy
$(CHP): $(VENV)/.installed
	npm install --no-audit --no-fund --loglevel=error --prefix $(VENV)/chp configurable-http-proxy@5.3.0

# vega, vega-lite and vega-embed (npm, pinned, into .venv/vega): tests/test_pictures_browser.py draws the
# course's Vega-Lite pictures in headless Chromium and measures their texts (issue 24).
VEGA = $(VENV)/vega/node_modules/vega-embed/build/vega-embed.min.js
$(VEGA): $(VENV)/.installed
	npm install --no-audit --no-fund --loglevel=error --prefix $(VENV)/vega vega@5.33.1 vega-lite@5.23.0 vega-embed@6.29.0
	touch $@

# The tests, then the notebooks (nbval), in one shell: the notebooks run and report even when a
# test failed, and the target then fails with the status of the first of the two that failed.
NBVAL_FILES = $(strip $(NOTEBOOKS) $(EXERCISES))
NBVAL = $(if $(NBVAL_FILES),$(TEST_ENV) $(BIN)/python -m pytest --nbval --nbval-current-env $(NBVAL_FILES),true)

test: build $(CHP) $(VEGA) $(VENV)/.installed-browser
	rm -rf "$(TMPHOME)" && mkdir -p "$(TMPHOME)"
	$(TEST_ENV) $(BIN)/ruff check $(LINT_PATHS)
	$(TEST_ENV) $(BIN)/python -m mypy --strict
	$(TEST_ENV) $(BIN)/python -m pytest; tests=$$?; \
	$(NBVAL); notebooks=$$?; \
	if [ $$tests -ne 0 ]; then exit $$tests; fi; exit $$notebooks

# The engine's tests in under a minute, while you work: the core, the rules, playing on, the players
# and the words, without the tests marked slow (pyproject.toml), and the package's layers and sizes.
FAST_TESTS = tests/core tests/play tests/players tests/text \
	tests/test_layers.py tests/test_names.py tests/test_sizes.py

test-fast: build
	mkdir -p "$(TMPHOME)"
	$(TEST_ENV) $(BIN)/python -m pytest -m "not slow" $(FAST_TESTS)

bench: build
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/engine.py
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/widgets.py
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/env.py
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/batch.py
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/graph.py

# Ours beside OpenSpiel's crazy_eights, RLCard's UNO and PettingZoo's AEC envs, in one run (benchmarks/peers.py). The peers go
# into a throwaway venv of their own (benchmarks/peers/.venv, ignored by git), never into .venv.
PEERS_VENV = benchmarks/peers/.venv
$(PEERS_VENV)/.installed:
	$(PY) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet open_spiel rlcard pygame
	touch $@

bench-peers: build $(PEERS_VENV)/.installed
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/peers.py --peers-venv $(PEERS_VENV)

# The real-browser tests (JupyterLab + Playwright + Debian's /usr/bin/chromium), not part of `make test`:
# the card table, then every notebook of notebooks/ run in a copy (the course pass). Playwright comes
# from PyPI without its own browsers (no `playwright install`). `make browser-test BROWSER_TESTS=course
# COURSE_NOTEBOOKS=01,03` runs only the course pass, of notebooks 01 and 03.
BROWSER_TESTS ?= classroom table course hub league

$(VENV)/.installed-browser: $(VENV)/.installed pyproject.toml maumau/classroom/overrides.d/maumau.json
	$(BIN)/python -m pip install -e '.[test,lab]' playwright
	mkdir -p $(dir $(LAB_OVERRIDES)) && cp maumau/classroom/overrides.d/maumau.json $(LAB_OVERRIDES)
	touch $@

# axe-core (npm, pinned, into .venv/axe): the accessibility check of the browser tests (issue 16).
AXE = $(VENV)/axe/node_modules/axe-core/axe.min.js
$(AXE): $(VENV)/.installed
	npm install --no-audit --no-fund --loglevel=error --prefix $(VENV)/axe axe-core@4.14.1
	touch $@

browser-test: $(VENV)/.installed-browser build $(AXE) $(CHP)
	PYBIN=$(BIN)/python MM_AXE="$(CURDIR)/$(AXE)" tests/browser/run.sh $(BROWSER_TESTS)

# The course in the browser (docs/howto/browser-site.md): site/ is a static JupyterLite
# site (JupyterLab and Pyodide, a pure maumau wheel and its dependencies preinstalled; lite/build.py).
# Everything comes from PyPI and npm at build time; the site then needs nothing but a static web server.
$(VENV)/.installed-site: $(VENV)/.installed pyproject.toml
	$(BIN)/python -m pip install -e '.[site]'
	touch $@

site: $(VENV)/.installed-site
	$(BIN)/python lite/build.py --out site

# Serves site/ on localhost and drives Debian's Chromium (tests/browser/drive_site.py): notebook 01 run
# and a card played, every other notebook run, no request off localhost, load time and engine speed.
site-test: site
	MM_OUT="$(TMPHOME)/browser" $(BIN)/python tests/browser/drive_site.py
	# a check in the site's Pyodide reaches a class server through the browser's WebSocket (issue 38)
	# ... and a notebook there reads its learner's released feedback by a synchronous request (issue 38)
	$(TEST_ENV) SITE="$(CURDIR)/site" $(BIN)/python -m pytest -p no:cacheprovider tests/classroom/test_live_browser_course.py \
		tests/classroom/test_feedback_browser_course.py

# The manual (docs/: Sphinx with MyST-NB and the furo theme) into docs/_build/html: warnings are errors,
# every reference must resolve (-n). The course notebooks are shown with their committed outputs
# (nb_execution_mode "off" in docs/conf.py); the API pages import the pure-Python engine.
$(VENV)/.installed-docs: $(VENV)/.installed pyproject.toml
	$(BIN)/python -m pip install -e '.[docs]'
	touch $@

docs: $(VENV)/.installed-docs
	rm -rf "$(CURDIR)/docs/_build"
	MAUMAU_PURE_PYTHON=1 $(BIN)/sphinx-build -W --keep-going -n -b html "$(CURDIR)/docs" "$(CURDIR)/docs/_build/html"

clean:
	rm -rf site .site-build docs/_build
	rm -rf $(VENV) "$(TMPHOME)" .pytest_cache .ruff_cache .mypy_cache .hypothesis build dist *.egg-info
	rm -f maumau/core/*.so maumau/core/*.c maumau/env/*.c
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
