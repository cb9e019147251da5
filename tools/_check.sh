#!/usr/bin/env bash
set -uo pipefail
out=${OUT:-out}; mkdir -p $out
cmake -S . -B bd -DCLFDTD_VTK=OFF -DCLFDTD_CUDA=ON -DCMAKE_BUILD_TYPE=Release > $out/cmake.log 2>&1 && cmake --build bd -j16 > $out/build.log 2>&1 || { tail -30 $out/build.log; exit 1; }
ctest --test-dir bd -j8 --output-on-failure > $out/ctest.log 2>&1
echo "ctest exit $?"; grep -E "tests passed|Failed|\*\*\*" $out/ctest.log | head
./bd/tests/test_backends -tc='*plain cells next to*' > $out/slab.log 2>&1
echo "slab-edge cases: exit $? ($(tail -2 $out/slab.log | head -1))"
grep -E "test cases" $out/slab.log
