# SPDX-License-Identifier: GPL-2.0
#
# ringtrace top-level Makefile: builds the module and the user tools, and
# delegates everything else (tests, demo, benchmarks, install) to scripts/.
#
#   make                 module + user tools, against KVER's headers
#   make check           every test: unit (host), lint, selftests (in a VM)
#   make demo            build, boot a VM, load the module, stream records
#   make bench           benchmarks (not part of check)
#   make fuzz            the libFuzzer harnesses, FUZZ_TIME s each (600)
#   make install         ringtrace.ko (modules_install into
#                        $(DESTDIR)/lib/modules/$(KVER)/extra), tools, man
#                        pages, completions, ABI header, udev rule and
#                        sysusers.d entry under $(DESTDIR)$(PREFIX)
#   make uninstall       exactly what install put there (its manifest)
#   make dkms-install    register the module source with DKMS
#
# KVER defaults to the running kernel when its headers are installed, else
# to Debian's linux-headers-amd64 (scripts/kernel-version says which).

KVER	?= $(shell scripts/kernel-version)
KDIR	?= /lib/modules/$(KVER)/build
PREFIX	?= /usr/local
DESTDIR	?=

export KVER KDIR PREFIX DESTDIR

.PHONY: all module user check unit lint selftests demo bench fuzz install \
	uninstall dkms-install dkms-remove clean help

all: module user

module:
	@test -d "$(KDIR)" || { echo "ringtrace: no kernel headers at $(KDIR);" \
		"run scripts/install-deps (or set KDIR)" >&2; exit 1; }
	scripts/kbuild-module $(MAKE) modules

user:
	$(MAKE) -C user

check:
	scripts/check

unit:
	scripts/check --unit

lint:
	scripts/check --lint

selftests:
	scripts/check --vm

demo:
	@scripts/demo

bench:
	scripts/bench

FUZZ_TIME ?= 600
fuzz:
	scripts/fuzz --time $(FUZZ_TIME)

install: all
	scripts/install

uninstall:
	scripts/install --uninstall

dkms-install:
	scripts/dkms install

dkms-remove:
	scripts/dkms remove

clean:
	-scripts/kbuild-module $(MAKE) clean
	$(MAKE) -C user clean
	rm -rf build

help:
	@sed -n '3,16p' Makefile
