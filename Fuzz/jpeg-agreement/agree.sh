#!/bin/bash
# Agreement with libjpeg-turbo lenient: every file of DIR through `refdecode --lenient`
# and `glimpse decode` (release build); both reject, or both decode to identical PAMs.
# Usage: Fuzz/jpeg-agreement/agree.sh .build/release/glimpse DIR  (prints a verdict per file, then the figure)
G=$1; D=$2; T=$(mktemp -d); agree=0; n=0
for f in "$D"/*; do
  n=$((n+1))
  r=0; g=0
  timeout 20 /work/tools/refdecode --iterations 1 --lenient --dump $T/r.pam "$f" >/dev/null 2>&1 && r=1
  timeout 20 $G decode "$f" -o $T/g.pam >/dev/null 2>&1 && g=1
  if [ $r = 0 ] && [ $g = 0 ]; then v=both-reject
  elif [ $r = 1 ] && [ $g = 1 ]; then if cmp -s $T/r.pam $T/g.pam; then v=same; else v=DIFF; fi
  elif [ $r = 1 ]; then v=GLIMPSE-REJECTS; else v=GLIMPSE-ACCEPTS; fi
  case $v in both-reject|same) agree=$((agree+1));; esac
  echo "$v $(basename $f)"
  rm -f $T/r.pam $T/g.pam
done
echo "agreement $agree / $n"
rm -rf $T
