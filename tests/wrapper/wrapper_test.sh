#!/bin/bash
# End-to-end tests of numaperf-clang / numaperf-clang++, run by ctest:
#   wrapper_test.sh <test-name> <bin-dir> <work-dir> <real-clang> <real-clang++>
# Each test prints what it checks and exits non-zero on the first failure.
set -u
name=$1 BIN=$2 WORK=$3 CLANG=$4 CLANGXX=$5
HERE=$(cd "$(dirname "$0")" && pwd)
W="$BIN/numaperf-clang"
WXX="$BIN/numaperf-clang++"
unset NUMAPERF_CC NUMAPERF_CXX NUMAPERF_DISABLE NUMAPERF_WRAPPER_VERBOSE CC CXX CFLAGS CXXFLAGS LDFLAGS

fail() { echo "FAIL [$name]: $*" >&2; exit 1; }
note() { echo "-- $*"; }
# run CMD...: runs it, output in out.txt, status in $rc
run() { "$@" >out.txt 2>&1; rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || { cat out.txt >&2; fail "expected exit code $1, got $rc: $2"; }; }
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
has_needed() { needed "$1" | grep -qx "$2"; }
hooks_in() { nm "$1" 2>/dev/null | grep -Eq ' U __numaperf_(load|store)'; }

[ -x "$W" ] || fail "wrapper not built: $W"
[ -e "$WXX" ] || fail "wrapper symlink not built: $WXX"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || fail "cannot create $WORK"

cat > hot.c <<'EOF'
int g;
int f(int *p) { g = *p; return g + p[1]; }
EOF
cat > ok.c <<'EOF'
#include <stdio.h>
int main(void) { printf("hello\n"); return 3; }
EOF

case $name in

version)
  for flag in --version -dumpversion -dumpmachine -print-search-dirs -print-resource-dir \
              -print-prog-name=ld -print-file-name=libc.so; do
    note "numaperf-clang $flag == clang $flag"
    diff <("$W" $flag 2>&1) <("$CLANG" $flag 2>&1) || fail "$flag differs"
  done
  note "numaperf-clang++ --version == clang++ --version"
  diff <("$WXX" --version 2>&1) <("$CLANGXX" --version 2>&1) || fail "c++ --version differs"
  note "-v alone, -### and no-input calls are passed through untouched"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" -v; expect_rc 0 "-v"
  grep -q '^numaperf-clang: \[pass-through\]' out.txt || fail "-v not passed through"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" -### -c hot.c; expect_rc 0 "-###"
  grep -q 'fpass-plugin' out.txt && fail "-### got the plugin"
  for probe in -V -qversion -c; do
    "$CLANG" $probe >/dev/null 2>&1; want=$?
    run "$W" $probe; expect_rc $want "$probe must fail like clang"
  done
  ;;

preprocess)
  printf '#include <stdio.h>\n#define SQ(x) ((x)*(x))\nint v = SQ(3);\n' > pp.c
  printf '#include <vector>\nstd::vector<int> v{1,2};\n' > pp.cpp
  note "-E output equals clang's"
  diff <("$W" -E pp.c 2>&1) <("$CLANG" -E pp.c 2>&1) >/dev/null || fail "-E (C) differs"
  diff <("$WXX" -E pp.cpp 2>&1) <("$CLANGXX" -E pp.cpp 2>&1) >/dev/null || fail "-E (C++) differs"
  note "-M / -MM output equals clang's"
  diff <("$W" -M pp.c 2>&1) <("$CLANG" -M pp.c 2>&1) || fail "-M differs"
  diff <("$W" -MM pp.c 2>&1) <("$CLANG" -MM pp.c 2>&1) || fail "-MM differs"
  note "-E from stdin"
  diff <(echo 'int x = __LINE__;' | "$W" -E - 2>&1) <(echo 'int x = __LINE__;' | "$CLANG" -E - 2>&1) \
    || fail "-E - differs"
  note "#include <numaperf/hook_abi.h> works in -E and -fsyntax-only"
  printf '#include <numaperf/hook_abi.h>\nunsigned v = NUMAPERF_HOOK_ABI_VERSION;\n' > abi.c
  run "$W" -E abi.c; expect_rc 0 "-E with numaperf header"
  run "$W" -fsyntax-only abi.c; expect_rc 0 "-fsyntax-only with numaperf header"
  note "-MD -c is a compile and writes the same dependency file"
  run "$W" -MD -MF w.d -c pp.c -o w.o; expect_rc 0 "-MD -c"
  hooks_in w.o || nm w.o | grep -q __numaperf_register_module || fail "-MD -c object not instrumented"
  "$CLANG" -MD -MF c.d -c pp.c -o w.o
  diff w.d c.d || fail "dependency files differ"
  ;;

compile)
  note "-c: object calls the access hooks"
  run "$W" -O2 -c hot.c -o hot.o; expect_rc 0 "-c"
  hooks_in hot.o || { nm hot.o; fail "no __numaperf_load/store reference in hot.o"; }
  run "$W" -O0 -c hot.c -o hot0.o; expect_rc 0 "-O0 -c"
  hooks_in hot0.o || fail "no hooks at -O0"
  note "-c adds -g (debug info present) and -fno-omit-frame-pointer"
  readelf -S hot.o | grep -q '\.debug_info' || fail "no debug info without user -g"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" -O2 -c hot.c -o hot.o; expect_rc 0 "-c verbose"
  grep -q -- ' -fno-omit-frame-pointer' out.txt || fail "-fno-omit-frame-pointer not added"
  grep -q -- ' -O2 -c hot.c -o hot.o$' out.txt || fail "user arguments not kept in order at the end"
  note "-g0 is respected"
  run "$W" -g0 -O2 -c hot.c -o hotg0.o; expect_rc 0 "-g0"
  readelf -S hotg0.o | grep -q '\.debug_info' && fail "-g0 not respected"
  hooks_in hotg0.o || fail "-g0 object not instrumented"
  note "-fomit-frame-pointer is respected"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" -fomit-frame-pointer -c hot.c -o x.o; expect_rc 0 "omit fp"
  grep -q -- '-fno-omit-frame-pointer' out.txt && fail "-fno-omit-frame-pointer added despite -fomit-frame-pointer"
  note "-S: assembly calls the hooks"
  run "$W" -O2 -S hot.c -o hot.s; expect_rc 0 "-S"
  grep -Eq 'call.*__numaperf_(load|store)' hot.s || fail "no hook calls in -S output"
  note "C++ through numaperf-clang++"
  printf '#include <vector>\nint sum(const std::vector<int>&v){int s=0;for(int x:v)s+=x;return s;}\n' > v.cpp
  run "$WXX" -O2 -c v.cpp -o v.o; expect_rc 0 "c++ -c"
  hooks_in v.o || fail "C++ object not instrumented"
  note "assembly inputs: extra flags do not hurt, even with -Werror"
  printf '\t.text\n\t.globl asmfn\nasmfn:\n\tret\n' > a.s
  printf '#define RET ret\n\t.text\n\t.globl asmfn2\nasmfn2:\n\tRET\n' > b.S
  for f in a.s b.S; do
    run "$W" -Werror -Wunused-command-line-argument -c $f -o $f.o; expect_rc 0 "-c $f"
    [ ! -s out.txt ] || { cat out.txt; fail "diagnostics for $f"; }
  done
  run "$W" -Werror -Wunused-command-line-argument -c hot.c b.S; expect_rc 0 "mixed C and asm"
  [ ! -s out.txt ] || { cat out.txt; fail "diagnostics for mixed C/asm compile"; }
  note "unknown flags are passed through (clang sees them)"
  run "$W" -c hot.c -fnumaperf-no-such-flag; expect_rc 1 "unknown flag"
  grep -q "unknown argument: '-fnumaperf-no-such-flag'" out.txt || fail "unknown flag eaten"
  note "response files (nested, quoted) select the mode"
  mkdir -p "dir with space"
  cp hot.c "dir with space/my hot.c"
  printf -- "-O2 @inner.rsp\n'dir with space/my hot.c'\n" > outer.rsp
  printf -- '-c -o "dir with space/r.o"\n' > inner.rsp
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" @outer.rsp; expect_rc 0 "@outer.rsp"
  grep -q '\[compile\]' out.txt || fail "mode from response file not detected"
  hooks_in "dir with space/r.o" || fail "object from response file not instrumented"
  ;;

link)
  "$W" -O2 -c hot.c -o hot.o || fail "compile"
  note "executable link: NEEDED libnumaperf.so first, rpath, runs on its own"
  run "$W" ok.c hot.o -o ok; expect_rc 0 "link"
  has_needed ok libnumaperf.so || fail "libnumaperf.so not NEEDED"
  [ "$(needed ok | head -n1)" = libnumaperf.so ] || fail "libnumaperf.so is not the first NEEDED: $(needed ok | tr '\n' ' ')"
  readelf -d ok | grep -Eq 'R(UN)?PATH.*'"$(dirname "$BIN")"/lib || fail "no rpath to the runtime"
  run ./ok; expect_rc 3 "instrumented program"
  grep -q '^hello$' out.txt || fail "program output missing"
  note "the user's --as-needed state is kept for their own libraries"
  run "$W" ok.c -Wl,--as-needed -lm -o ok2; expect_rc 0 "as-needed link"
  has_needed ok2 libm.so.6 && fail "libm NEEDED although unused under --as-needed"
  has_needed ok2 libnumaperf.so || fail "runtime dropped under --as-needed"
  run "$W" ok.c -lm -o ok3; expect_rc 0 "no-as-needed link"
  has_needed ok3 libm.so.6 || fail "libm dropped although no --as-needed"
  note "-pthread is not forced"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" ok.c -o ok4; expect_rc 0 "link"
  grep -q -- '-pthread' out.txt && fail "-pthread forced"
  note "-shared: no runtime, hooks stay undefined"
  run "$W" -shared -fPIC -O2 hot.c -o libhot.so; expect_rc 0 "-shared"
  has_needed libhot.so libnumaperf.so && fail "runtime linked into a plain -shared library"
  nm -D libhot.so | grep -Eq ' U __numaperf_(load|store)' || fail "shared library not instrumented"
  note "-shared -Wl,-z,defs / --no-undefined: links, runtime NEEDED"
  for defs in -Wl,-z,defs -Wl,--no-undefined; do
    run "$W" -shared -fPIC $defs -O2 hot.c -o libhotdefs.so; expect_rc 0 "-shared $defs"
    has_needed libhotdefs.so libnumaperf.so || fail "runtime not NEEDED with $defs"
  done
  note "executable using the instrumented shared library"
  printf 'int f(int*);\nint main(void){int a[2]={4,5};return f(a);}\n' > usehot.c
  run "$W" usehot.c -L. -lhot -Wl,-rpath,"$PWD" -o usehot; expect_rc 0 "link against libhot"
  run ./usehot; expect_rc 9 "program using instrumented .so"
  note "-r: no runtime"
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" -r hot.o -o hot_r.o; expect_rc 0 "-r"
  grep -q libnumaperf out.txt && fail "runtime added to -r link"
  note "-static: one-line warning, plain static executable"
  if [ -f "$("$CLANG" -print-file-name=libc.a)" ]; then
    run "$W" -static ok.c -o okstatic; expect_rc 0 "-static"
    grep -q '^numaperf-clang: warning: static executables are not supported' out.txt \
      || fail "no warning for -static"
    [ "$(grep -c . out.txt)" -eq 1 ] || fail "more than one line of output for -static"
    run ./okstatic; expect_rc 3 "static program"
    note "-static with instrumented objects fails loudly (undefined hooks)"
    run "$W" -static hot.o ok.c -o okstatic2; [ $rc -ne 0 ] || fail "static link of instrumented objects succeeded?"
    grep -q 'warning: static executables are not supported' out.txt || fail "no warning"
  else
    echo "(no libc.a: static link part skipped)"
  fi
  note "link through a response file"
  printf 'ok.c hot.o -o ok_rsp\n' > link.rsp
  run "$W" @link.rsp; expect_rc 0 "@link.rsp"
  has_needed ok_rsp libnumaperf.so || fail "runtime missing for link via response file"
  ;;

exit-codes)
  note "a compile error gives clang's exit code and diagnostics"
  printf 'int main(void) { return nope; }\n' > bad.c
  "$CLANG" -c bad.c -o bad.o >clang.txt 2>&1; want=$?
  run "$W" -c bad.c -o bad.o; expect_rc $want "compile error"
  diff out.txt clang.txt || fail "diagnostics differ"
  note "a link error gives clang's exit code"
  printf 'int missing(void);\nint main(void){return missing();}\n' > undef.c
  "$CLANG" undef.c -o undef >/dev/null 2>&1; want=$?
  run "$W" undef.c -o undef; expect_rc $want "link error"
  note "exit codes and signals of the real compiler pass through"
  printf '#!/bin/sh\nexit 42\n' > cc42; chmod +x cc42
  run env NUMAPERF_CC="$PWD/cc42" "$W" -c hot.c; expect_rc 42 "exit 42"
  printf '#!/bin/sh\nkill -SEGV $$\n' > ccsegv; chmod +x ccsegv
  NUMAPERF_CC="$PWD/ccsegv" "$W" -c hot.c 2>/dev/null; rc=$?
  [ $rc -eq 139 ] || fail "signal not passed through (rc $rc)"
  note "NUMAPERF_CXX selects the C++ compiler; NUMAPERF_CC does not affect numaperf-clang++"
  printf '#!/bin/sh\nexit 43\n' > cc43; chmod +x cc43
  run env NUMAPERF_CXX="$PWD/cc43" NUMAPERF_CC="$PWD/cc42" "$WXX" --version; expect_rc 43 "NUMAPERF_CXX"
  note "a compiler name is searched in PATH"
  run env PATH="$PWD:$PATH" NUMAPERF_CC=cc42 "$W" --version; expect_rc 42 "PATH lookup"
  ;;

errors)
  note "missing real compiler: message and exit 127"
  run env NUMAPERF_CC=/nonexistent/clang "$W" -c hot.c; expect_rc 127 "missing compiler"
  grep -qx "numaperf-clang: cannot run '/nonexistent/clang': No such file or directory" out.txt \
    || { cat out.txt; fail "wrong message for missing compiler"; }
  run env NUMAPERF_CXX=no-such-clang-xyz "$WXX" --version; expect_rc 127 "missing compiler in PATH"
  grep -q "^numaperf-clang++: cannot run 'no-such-clang-xyz'" out.txt || fail "wrong message (PATH)"
  printf 'not a program\n' > notexec
  run env NUMAPERF_CC="$PWD/notexec" "$W" -c hot.c; expect_rc 127 "non-executable compiler"
  grep -q "cannot run '$PWD/notexec': Permission denied" out.txt || fail "wrong message (EACCES)"
  note "the wrapper as its own real compiler is refused"
  run env NUMAPERF_CC="$W" "$W" -c hot.c; expect_rc 127 "self recursion"
  grep -q "itself" out.txt || fail "no self-recursion message"
  note "bad environment values: one line, exit 2"
  for var in NUMAPERF_DISABLE NUMAPERF_WRAPPER_VERBOSE; do
    run env $var=banana "$W" -c hot.c; expect_rc 2 "$var=banana"
    grep -qx "numaperf-clang: invalid value 'banana' for $var (expected 0 or 1)" out.txt \
      || { cat out.txt; fail "wrong message for $var"; }
    [ "$(grep -c . out.txt)" -eq 1 ] || fail "more than one line"
  done
  note "NUMAPERF_DISABLE=1: plain compiler"
  run env NUMAPERF_DISABLE=1 NUMAPERF_WRAPPER_VERBOSE=1 "$W" -O2 hot.c ok.c -o plain; expect_rc 0 "disabled"
  grep -qx "numaperf-clang: \[disabled\] $CLANG -O2 hot.c ok.c -o plain" out.txt \
    || { cat out.txt; fail "disabled command line not plain"; }
  has_needed plain libnumaperf.so && fail "runtime linked with NUMAPERF_DISABLE=1"
  nm plain | grep -q __numaperf_ && fail "hooks with NUMAPERF_DISABLE=1"
  run env NUMAPERF_DISABLE=0 "$W" -c hot.c -o on.o; expect_rc 0 "NUMAPERF_DISABLE=0"
  hooks_in on.o || fail "NUMAPERF_DISABLE=0 disabled instrumentation"
  note "missing plugin / runtime: names the path looked for, exit 1"
  mkdir -p fake/bin && cp "$W" fake/bin/numaperf-clang
  run fake/bin/numaperf-clang -c hot.c; expect_rc 1 "missing plugin"
  grep -q "numaperf-clang: numaperf pass plugin not found (looked for '$PWD/fake/lib/numaperf/NumaPerfPass.so'" out.txt \
    || { cat out.txt; fail "wrong message for missing plugin"; }
  "$CLANG" -c hot.c -o plain.o
  run fake/bin/numaperf-clang plain.o -o x; expect_rc 1 "missing runtime"
  grep -q "numaperf-clang: numaperf runtime not found (looked for '$PWD/fake/lib/libnumaperf.so'" out.txt \
    || { cat out.txt; fail "wrong message for missing runtime"; }
  run fake/bin/numaperf-clang --version; expect_rc 0 "--version without plugin"
  run fake/bin/numaperf-clang -E hot.c; expect_rc 0 "-E without plugin"
  ;;

cmake-project)
  note "CC=numaperf-clang CXX=numaperf-clang++ cmake (shared lib + exe, std::thread)"
  run env CC="$W" CXX="$WXX" cmake -S "$HERE/project" -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  expect_rc 0 "cmake configure"
  grep -q 'The CXX compiler identification is Clang' out.txt || { cat out.txt; fail "compiler not identified as Clang"; }
  grep -q 'Detecting CXX compiler ABI info - done' out.txt \
    || { cat out.txt; fail "ABI detection did not complete"; }
  run cmake --build build; expect_rc 0 "cmake build"
  hooks_in build/CMakeFiles/democounter.dir/counter.cpp.o || fail "library object not instrumented"
  has_needed build/demo libnumaperf.so || fail "demo lacks libnumaperf.so"
  has_needed build/libdemocounter.so libnumaperf.so && fail "plain shared lib got the runtime"
  run build/demo; expect_rc 7 "demo"
  grep -q 'total 2002000 (want 2002000)' out.txt || { cat out.txt; fail "wrong demo output"; }
  ;;

make-project)
  note "make CC=numaperf-clang CXX=numaperf-clang++ (static lib + exe, std::thread)"
  mkdir build && cd build || fail "mkdir"
  run make -f "$HERE/project/Makefile" SRCDIR="$HERE/project" CC="$W" CXX="$WXX"; expect_rc 0 "make"
  hooks_in worker.o || fail "worker.o not instrumented"
  [ -f main.d ] || fail "-MMD dependency file missing"
  has_needed demo libnumaperf.so || fail "demo lacks libnumaperf.so"
  run ./demo; expect_rc 7 "demo"
  ;;

filter)
  note "--numaperf-filter=FILE: filtered functions get no hooks, the flag never reaches clang"
  printf 'int a(int *p) { return *p; }\nint b(int *p) { return *p; }\n' > two.c
  printf 'fun:b\n' > drop-b.txt
  run env NUMAPERF_WRAPPER_VERBOSE=1 "$W" --numaperf-filter=drop-b.txt -O1 -S two.c -o two.s; expect_rc 0 "filter flag"
  grep -q -- 'numaperf-filter' out.txt && fail "--numaperf-filter passed to clang"
  sed -n '/^a:/,/\.cfi_endproc/p' two.s | grep -q '__numaperf_load4' || fail "kept function a lost its hook"
  sed -n '/^b:/,/\.cfi_endproc/p' two.s | grep -q '__numaperf_load4' && fail "filtered function b has a hook"
  note "NUMAPERF_FILTER in the environment does the same (build systems)"
  run env NUMAPERF_FILTER="$PWD/drop-b.txt" "$W" -O1 -S two.c -o two-env.s; expect_rc 0 "filter env"
  sed -n '/^b:/,/\.cfi_endproc/p' two-env.s | grep -q '__numaperf_load4' && fail "env filter ignored"
  note "a missing or malformed filter file fails the build with file and line"
  run "$W" --numaperf-filter=nope.txt -c two.c -o x.o; expect_rc 1 "missing filter"
  grep -q "numaperf-clang: cannot read filter file 'nope.txt'" out.txt || { cat out.txt; fail "missing filter message"; }
  printf 'fun:a\nbogus line\n' > bad.txt
  run "$W" --numaperf-filter=bad.txt -c two.c -o x.o
  [ "$rc" -ne 0 ] || fail "malformed filter accepted"
  grep -q "bad.txt:2: malformed line 'bogus line'" out.txt || { cat out.txt; fail "no file:line in the error"; }
  run "$W" -c two.c --numaperf-filter; expect_rc 2 "filter without value"
  ;;

configure-probe)
  note "./configure CC=numaperf-clang (autoconf-style probes)"
  run "$HERE/project/configure" CC="$W"; expect_rc 0 "configure"
  grep -q 'configure: creating config.h' out.txt || { cat out.txt; fail "configure incomplete"; }
  grep -qx '#define SIZEOF_LONG 8' config.h || fail "wrong SIZEOF_LONG"
  has_needed conftest libnumaperf.so || fail "conftest lacks libnumaperf.so"
  note "failing probes fail like plain clang"
  for opt in -V -qversion -version; do
    "$CLANG" $opt </dev/null >/dev/null 2>&1; want=$?
    grep -qx -- "$opt: $want" config.log || fail "$opt probe status differs from clang ($(grep -- "^$opt:" config.log))"
  done
  ;;

*)
  fail "unknown test"
  ;;
esac
echo "PASS [$name]"
