#!/bin/bash
# Agreement with libpng: every file of DIR through `refdecode --dump` (libpng with its
# default settings: an ancillary chunk with a bad CRC is dropped with a warning) and
# `glimpse decode --strict` (release build); both reject, or both decode to identical
# PAMs. With FUZZDIFF (Fuzz/.build/release/fuzz-diff) each file also goes through the
# png-diff target, whose libpng is strict as Glimpse's strict mode is (every CRC checked).
# Usage: Fuzz/png-agreement/agree.sh .build/release/glimpse DIR [FUZZDIFF]
# Prints a verdict per file (refdecode's, then png-diff's), then the figures.
G=$1; D=$2; FD=$3; T=$(mktemp -d); agree=0; strict=0; n=0
for f in "$D"/*; do
  n=$((n+1))
  r=0; g=0
  timeout 20 /work/tools/refdecode --iterations 1 --dump $T/r.pam "$f" >/dev/null 2>&1 && r=1
  timeout 20 $G decode --strict "$f" -o $T/g.pam >/dev/null 2>&1 && g=1
  if [ $r = 0 ] && [ $g = 0 ]; then v=both-reject
  elif [ $r = 1 ] && [ $g = 1 ]; then if cmp -s $T/r.pam $T/g.pam; then v=same; else v=DIFF; fi
  elif [ $r = 1 ]; then v=GLIMPSE-REJECTS; else v=GLIMPSE-ACCEPTS; fi
  case $v in both-reject|same) agree=$((agree+1));; esac
  s=-
  if [ -n "$FD" ]; then
    if timeout 20 $FD png-diff "$f" >/dev/null 2>&1; then s=strict-agree; strict=$((strict+1)); else s=STRICT-DISAGREE; fi
  fi
  echo "$v $s $(basename $f)"
  rm -f $T/r.pam $T/g.pam
done
echo "agreement with refdecode $agree / $n"
[ -n "$FD" ] && echo "agreement with png-diff (strict libpng) $strict / $n"
rm -rf $T
