/* tucana/privatize.h: per-subrank copies of a program's global and static
 * variables. tucanacc's translator writes the calls below into translated
 * sources (docs/privatization.md); programs do not call them by hand.
 *
 * How it works. Every privatized variable is defined in one ELF section,
 * `tucana_priv`, so the linker gathers those of all objects and static
 * libraries of a program into one range [__start_tucana_priv,
 * __stop_tucana_priv): the image. Each subrank gets its own copy of the
 * image, made when the subrank is created (so it starts with the static
 * initial values), at a fixed distance from it: tucana_priv_delta(). The
 * translator rewrites each use of a privatized variable `x` of type T into
 * (*(T *)((char *)&x + tucana_priv_delta())), which is the running subrank's
 * copy. Dynamic initializers (C++) and destructors run once per subrank. */
#ifndef TUCANA_PRIVATIZE_H
#define TUCANA_PRIVATIZE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct option; /* <getopt.h> */

/* The section that holds the image of every privatized variable. */
#define TUCANA_PRIVATE_SECTION "tucana_priv"
/* Marks a definition as privatized (placed after its declarator). */
#define TUCANA_PRIVATE __attribute__((section(TUCANA_PRIVATE_SECTION)))

/* Distance in bytes from the image of a privatized variable to the running
 * subrank's copy of it. 0 outside subranks (the process's start-up code, its
 * exit handlers, threads the program starts itself): there the image is used.
 * Contract: the value depends only on the subrank that calls it and never
 * changes during the subrank's life, whichever worker thread runs it: this is
 * what makes `const` right (the compiler may keep it for a whole function). */
__attribute__((const, nothrow)) ptrdiff_t tucana_priv_delta(void);

/* tucana_priv_delta() without a call. The runtime's worker threads keep the
 * running subrank's delta in the thread-local tucana_priv_current_delta
 * (initial-exec, in the executable); one %fs-relative load reads it. The
 * asm is not volatile: the compiler may reuse the value within a function,
 * which is right for the reason tucana_priv_delta is `const`; and each
 * executed load reads the thread that runs it, so a subrank that moved to
 * another worker still finds its own delta (a C read of a thread-local may
 * reuse the address of the old worker's copy). Elsewhere: the call. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TUCANA_PRIV_NO_INLINE_DELTA)
/* A statement expression, not an inline function: a debugger stopped in
 * the program's code stays in the program's scope. */
#define TUCANA_PRIV_DELTA()                                                        \
  __extension__({                                                                  \
    ptrdiff_t tucana_delta_;                                                       \
    __asm__("movq %%fs:tucana_priv_current_delta@tpoff, %0" : "=r"(tucana_delta_)); \
    tucana_delta_;                                                                 \
  })
#else
#define TUCANA_PRIV_DELTA() tucana_priv_delta()
#endif

/* The linker's bounds of the image; null when the program has none. */
extern char __start_tucana_priv[] __attribute__((weak, visibility("hidden")));
extern char __stop_tucana_priv[] __attribute__((weak, visibility("hidden")));

/* The running subrank's copy of privatized variable `x` (an lvalue of x's
 * type): defined in this translation unit, or declared only (EXTERN). */
#define TUCANA_PRIV(x) (*(__typeof__(x) *)((char *)&(x) + TUCANA_PRIV_DELTA()))
/* The same where a statement expression may not stand (a default argument,
 * a default member initializer): through the call. */
#define TUCANA_PRIV_CALL(x) (*(__typeof__(x) *)((char *)&(x) + tucana_priv_delta()))
/* EXTERN: `x` is declared but not defined in this translation unit; it is
 * privatized when its definition was (compiled by tucanacc), which only its
 * address tells: in the image or not. */
#define TUCANA_PRIV_EXTERN(x)                                                                   \
  (*__extension__({                                                                             \
    __typeof__(x) *tucana_image_ = (__typeof__(x) *)&(x);                                       \
    __UINTPTR_TYPE__ tucana_at_ = (__UINTPTR_TYPE__)tucana_image_;                              \
    tucana_at_ >= (__UINTPTR_TYPE__)__start_tucana_priv && tucana_at_ < (__UINTPTR_TYPE__)__stop_tucana_priv \
        ? (__typeof__(x) *)((char *)tucana_image_ + TUCANA_PRIV_DELTA())                         \
        : tucana_image_;                                                                        \
  }))

/* Registers a per-subrank initializer of one translation unit (C++ dynamic
 * initialization): each subrank runs every registered initializer, in the
 * order they were registered (the order of the translation units' own static
 * initialization), on its own fiber before its main.
 * Contract: called before main (from a static constructor). */
void tucana_priv_add_init(void (*init)(void));

/* Registers a destructor call for the running subrank, like __cxa_atexit:
 * when the subrank ends (its main returns, or it calls exit()), its calls run
 * in the reverse order of registration, with the subrank's own copies in
 * effect. Outside subranks it is std::atexit's job: the call runs at exit.
 * Contract: fn is not null. */
void tucana_priv_atexit(void (*fn)(void *), void *arg);

/* libc state that MPI programs keep per rank, one copy per subrank. The
 * translator rewrites calls and uses of the libc names (getopt's optind,
 * optarg, opterr and optopt; rand, srand, random, srandom, strtok, getopt,
 * getopt_long, getopt_long_only) into these; the results are the same as
 * libc's for the same sequence of calls in one program. */
int *tucana_priv_optind(void);
char **tucana_priv_optarg(void);
int *tucana_priv_opterr(void);
int *tucana_priv_optopt(void);
int tucana_rand(void);
void tucana_srand(unsigned int seed);
long tucana_random(void);
void tucana_srandom(unsigned int seed);
char *tucana_strtok(char *str, const char *delim);
int tucana_getopt(int argc, char *const argv[], const char *optstring);
int tucana_getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                       int *longindex);
int tucana_getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                            int *longindex);

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_PRIVATIZE_H */
