extern int nsteps;
extern long ledger[8];
extern int ledger_n;
void record(long v);
long ledger_sum(void);
