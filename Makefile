# schedlab - the only Makefile.  make [V=1] [SANITIZE=address,undefined]
#   make            build ./schedlab
#   make deps       install missing Debian packages (as root), or say which
#   make demo       deps + build + import a bundled real trace + table
#   make test       deps + unit tests, end-to-end tests, fuzz corpus replay
#   make bench      speed ratios against perf sched / trace-cmd on the same input
#   make validate   the corpus table: validate on every traces/corpus recording,
#                   then the noise floor (the recordings against each other)
#   make install PREFIX=/usr/local DESTDIR=
#   make fuzz       libFuzzer binaries (clang) in build/fuzz/

CC ?= cc
CORPUS ?= traces/corpus traces/corpus-quiet
PREFIX ?= /usr/local
PKGS := libtraceevent libtracecmd libtracefs sqlite3 cairo libcrypto libzstd zlib
DEB_PKGS := build-essential pkg-config libtraceevent-dev libtracecmd-dev \
	libtracefs-dev libsqlite3-dev libcairo2-dev libssl-dev libzstd-dev zlib1g-dev sqlite3 gnuplot-nox \
	trace-cmd linux-perf clang libclang-rt-14-dev gawk xvfb mesa-utils chromium parallel \
	rt-tests sysbench procps

ifeq ($(SANITIZE),)
VARIANT := default
SANFLAGS :=
else
VARIANT := san
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all -DSL_SANITIZE
endif
B := build/$(VARIANT)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wformat=2 -Wvla
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SANFLAGS) $(PKG_CFLAGS) \
	-include common/banned.h -MMD -MP
ifneq ($(WERROR),)
ALL_CFLAGS += -Werror
endif
LDLIBS := $(PKG_LIBS) -lm -lpthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRC := $(sort $(wildcard common/*.c collector/*.c replay/*.c analyze/*.c plots/*.c cmd/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/%.o)
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
TOOLS := $(TOOL_SRC:tests/tools/%.c=$(B)/tools/%)

.PHONY: all deps demo test unit fuzz bench validate install clean schedlab claims-doc
all: schedlab

schedlab: $(B)/schedlab
	$(Q)cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }

$(B)/schedlab: $(B)/schedlab.o $(B)/libschedlab.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(B)/schedlab.o $(B)/libschedlab.a $(LDLIBS)

$(B)/libschedlab.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the schema is compiled in as a C string
analyze/schema.inc: analyze/schema.sql
	$(Q)awk 'BEGIN{print "/* generated from schema.sql by make */"} {gsub(/\\/,"\\\\"); gsub(/"/,"\\\""); print "\"" $$0 "\\n\""}' $< > $@
$(B)/analyze/store.o: analyze/schema.inc

$(B)/unit_tests: $(UNIT_OBJ) $(B)/libschedlab.a
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(UNIT_OBJ) $(B)/libschedlab.a $(LDLIBS)

$(B)/tools/%: tests/tools/%.c $(B)/libschedlab.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# fuzz targets built as plain programs that replay a corpus (every make test)
$(B)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(B)/libschedlab.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay_main.c $(B)/libschedlab.a $(LDLIBS)

deps:
	$(Q)sh tests/deps.sh $(DEB_PKGS)

demo: deps
	$(Q)$(MAKE) --no-print-directory schedlab
	$(Q)sh tests/demo.sh

test: deps
	$(Q)$(MAKE) --no-print-directory schedlab $(B)/unit_tests $(TOOLS) $(FUZZ_NAMES:%=$(B)/fuzz/replay_%)
	$(Q)B=$(B) SL_LDLIBS="$(LDLIBS)" sh tests/run-all.sh

unit: schedlab $(B)/unit_tests
	$(Q)$(B)/unit_tests

bench: deps
	$(Q)$(MAKE) --no-print-directory schedlab $(B)/unit_tests $(TOOLS)
	$(Q)B=$(B) SL_LDLIBS="$(LDLIBS)" sh tests/bench/run.sh
	$(Q)SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/validate-corpus.sh $(CORPUS)
	$(Q)# the same table's summary with other draws (docs/validate.md, "The pass count's own spread")
	$(Q)for s in 15 30; do echo "== the corpus with seeds from $$s (validate --first-seed $$s)"; \
		VALIDATE_OPTS="--first-seed $$s" SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/validate-corpus.sh $(CORPUS) | grep -E "^(validate: |past the threshold|of them inside|mean )"; done
	$(Q)SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/noise-floor.sh $(CORPUS)

# docs/claims.md's results, from the binary (e2e 600 checks they match)
claims-doc: schedlab
	$(Q)SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/claims-doc.sh

validate: schedlab
	$(Q)SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/validate-corpus.sh $(CORPUS)
	$(Q)SCHEDLAB=$(CURDIR)/schedlab sh tests/tools/noise-floor.sh $(CORPUS)

fuzz:
	$(Q)mkdir -p build/fuzz
	$(Q)for n in $(FUZZ_NAMES); do \
		echo "  FUZZ    build/fuzz/$$n"; \
		clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-include common/banned.h $(PKG_CFLAGS) -o build/fuzz/$$n tests/fuzz/fuzz_$$n.c \
		$(filter-out schedlab.c,$(LIB_SRC)) $(LDLIBS) || exit 1; done

install: schedlab
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/schedlab
	install -m 755 schedlab $(DESTDIR)$(PREFIX)/bin/schedlab
	install -m 644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/schedlab/

clean:
	rm -rf build schedlab analyze/schema.inc out

-include $(LIB_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(B)/schedlab.d
