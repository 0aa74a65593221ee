; A malformed or unreadable filter file fails the compilation with the file
; and line of the problem (opt and clang exit non-zero).
; RUN: split-file %s %t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/kind.txt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=KIND -DDIR=%t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/section.txt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=SECTION -DDIR=%t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/noend.filt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=NOEND -DDIR=%t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/orphan.filt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=ORPHAN -DDIR=%t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/empty-rule.filt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=EMPTY -DDIR=%t
; RUN: not %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/missing.txt -passes=numaperf -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=MISSING -DDIR=%t

; KIND: error: numaperf: [[DIR]]/kind.txt:3: unsupported entry kind 'global' (expected src: or fun:)
; SECTION: error: numaperf: [[DIR]]/section.txt:2: unknown section '[address]' (expected [allow] or [ignore])
; NOEND: error: numaperf: [[DIR]]/noend.filt:2: SCOREP_REGION_NAMES_BEGIN without a matching _END
; ORPHAN: error: numaperf: [[DIR]]/orphan.filt:2: pattern 'foo' before INCLUDE or EXCLUDE
; EMPTY: error: numaperf: [[DIR]]/empty-rule.filt:3: INCLUDE/EXCLUDE without a pattern
; MISSING: error: numaperf: [[DIR]]/missing.txt: cannot read filter file:

;--- kind.txt
# comment
fun:ok
global:counter

;--- section.txt
fun:ok
[address]

;--- noend.filt
# unterminated
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE foo

;--- orphan.filt
SCOREP_REGION_NAMES_BEGIN
  foo
SCOREP_REGION_NAMES_END

;--- empty-rule.filt
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE a
  INCLUDE
SCOREP_REGION_NAMES_END

;--- a.ll
define void @f(i32* %p) {
  store i32 1, i32* %p
  ret void
}
