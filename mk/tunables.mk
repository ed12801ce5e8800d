# Tunables (issue 3): build/tunable-cli drives cli-tunable.c the way main()'s
# --set/--restore do, so tests/integration/tunables-*.sh run before (and
# independently of) main's option parsing. The scripts prefer $BLKTUNE when it
# knows --set.
$(BUILD)/tunable-cli: tests/integration/tunable-cli.c $(LIB_OBJ) $(GENERATED)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

all: $(BUILD)/tunable-cli
