// Control flow cannot leave a region: each region runs on its own, once per
// iteration, so 'return', 'goto', and 'break' or 'continue' that would
// leave the superblock loop are errors, and so is a 'goto' to a label
// outside the region (of another region included); all of them are
// reported. 'break' out of a loop or switch inside the region, and
// 'continue' of a loop inside it, are fine (see also
// control_flow_inside_region.cpp).
//
// RUN: rm -f %t.out
// RUN: not %tucana-translate %s -o %t.out -- 2>&1 | FileCheck %s -DFILE=%s --match-full-lines --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: not test -e %t.out

int f(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(check)
    {
      if (a[i] < 0)
        // CHECK: [[FILE]]:[[@LINE+1]]:9: error: 'return' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        return -1;
      if (a[i] > 100)
        // CHECK: [[FILE]]:[[@LINE+1]]:9: error: 'break' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        break;
    }
#pragma tucana region(work) depends(check)
    {
      for (int j = 0; j < i; j++) {
        if (a[j] == 0)
          continue;
        if (a[j] > a[i])
          break;
        a[j] += 1;
      }
      switch (i % 3) {
      case 0:
        a[i] = 0;
        break;
      default:
        // CHECK: [[FILE]]:[[@LINE+1]]:9: error: 'continue' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        continue;
      }
      if (a[i] == 42)
        // CHECK: [[FILE]]:[[@LINE+1]]:9: error: 'goto' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        goto done;
      if (a[i] == 7)
        // A label of another region is outside this one too.
        // CHECK: [[FILE]]:[[@LINE+1]]:9: error: 'goto' cannot leave a superblock's regions (each region runs on its own, once per iteration)
        goto other;
    }
#pragma tucana region(last) depends(work)
    {
    other:
      a[0] += 1;
    }
  }
done:
  return 0;
}
