# make mutate: mutation testing of the core modules (tests/mutate.py; not in
# CI). One mutant at a time in a scratch copy of the tree, narrowest suite
# first, a report of the score per module with every survivor's diff.
# The scratch tree (build/mutate/tree) has its own -O0 ASan build; the
# working tree's build only lends it the BPF skeleton headers.
#   make mutate MODULES="model stats" MAX=60 SEED=1 TIMEOUT=30 INTEGRATION=0
# MAX samples that many mutants per module (0: every mutant); ONLY="id ..."
# re-runs given mutants (ids as the report prints them); SCRIPTS="integration/x.sh ..."
# replaces the module's scripts (e.g. to leave out one that flakes under load).
MUTATE_ARGS = $(if $(MODULES),--modules "$(MODULES)") --max $(or $(MAX),0) --seed $(or $(SEED),1) \
              --timeout $(or $(TIMEOUT),30) $(if $(INTEGRATION),--integration $(INTEGRATION)) \
              $(if $(ONLY),--only "$(ONLY)") $(if $(SCRIPTS),--scripts "$(SCRIPTS)") --report $(BUILD)/mutate/report.txt

.PHONY: mutate
mutate: test-deps
	@$(MAKE) --no-print-directory all
	@python3 tests/mutate.py $(MUTATE_ARGS)
