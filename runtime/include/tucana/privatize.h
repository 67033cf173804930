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

/* The running subrank's copy of `image`, a variable declared but not
 * defined in the calling translation unit: it is privatized when its
 * definition was (compiled by tucanacc), which only its address tells (in
 * the image or not). `const` for the reason tucana_priv_delta is. */
__attribute__((const, nothrow)) void *tucana_priv_extern(const volatile void *image);

/* The running subrank's copy of privatized variable `x` (an lvalue of x's
 * type): defined in this translation unit, or declared only (EXTERN). */
#define TUCANA_PRIV(x) (*(__typeof__(x) *)((char *)&(x) + tucana_priv_delta()))
#define TUCANA_PRIV_EXTERN(x) (*(__typeof__(x) *)tucana_priv_extern(&(x)))

/* Registers a per-subrank initializer of one translation unit (C++ dynamic
 * initialization): each subrank runs every registered initializer, in the
 * order they were registered (the order of the translation units' own static
 * initialization), on its own fiber before its main.
 * Contract: called before main (from a static constructor). */
void tucana_priv_add_init(void (*init)(void));

/* Registers an OpenMP threadprivate variable (the translator emits the
 * call, from a static constructor, for each one a translation unit defines):
 * `address` returns the variable's copy in the calling thread, `size` is
 * its size. The runtime then gives each subrank, and each thread of the
 * OpenMP teams it starts, copies of its own (docs/privatization.md).
 * Contract: called before the variable is used (its copy in the calling
 * thread still holds its initial value); a trivially copyable type. */
void tucana_priv_threadprivate(void *(*address)(void), size_t size);

/* Registers a destructor call for the running subrank, like __cxa_atexit:
 * when the subrank ends (its main returns, or it calls exit()), its calls run
 * in the reverse order of registration, with the subrank's own copies in
 * effect. Outside subranks it is std::atexit's job: the call runs at exit.
 * Contract: fn is not null. */
void tucana_priv_atexit(void (*fn)(void *), void *arg);

/* libc state that MPI programs keep per rank, one copy per subrank. The
 * translator rewrites calls and uses of the libc names (errno, getopt's optind,
 * optarg, opterr and optopt; rand, srand, random, srandom, strtok, getopt,
 * getopt_long, getopt_long_only) into these; the results are the same as
 * libc's for the same sequence of calls in one program. */
/* The calling thread's errno, through a call no compiler keeps across
 * another call: a subrank's errno follows it from worker to worker, but an
 * address of errno kept across a blocking call would be the old worker's. */
int *tucana_priv_errno(void);
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

/* Shared libraries (docs/privatization.md, "Shared libraries"). Every
 * module (the executable, each shared library tucanacc links) has its own
 * image, bounded by its own __start_/__stop_tucana_priv, and one hidden
 * descriptor, tucana_priv_module_self, defined in libtucana_module.a, which
 * tucanacc links into every program and shared library it builds: a
 * constructor of that library registers the module's image. Each subrank
 * has a copy of each module's image; for the executable's it is the one
 * tucana_priv_delta() reaches. */
struct tucana_priv_module {
  void *entry; /* the runtime's record of the module (null until registered) */
};
/* Contract: from the module's constructor, once; begin <= end (both null
 * for a module without privatized variables). */
void tucana_priv_register_module(struct tucana_priv_module *m, char *begin, char *end);
/* Distance from module m's image to the running subrank's copy of it (made
 * on the subrank's first use, with m's initializers then run for it, when m
 * was opened after the subrank started); 0 outside subranks. `const` for the
 * reason tucana_priv_delta is. */
__attribute__((const, nothrow)) ptrdiff_t tucana_priv_module_delta(struct tucana_priv_module *m);
/* tucana_priv_add_init for module m. Contract: before main for the
 * executable; from m's constructors for a shared library. */
void tucana_priv_module_add_init(struct tucana_priv_module *m, void (*init)(void));

/* Code compiled for a shared library (tucanacc passes -DTUCANA_PRIV_MODULE=1
 * with -fPIC/-fpic): its variables are in its module's image, whose copies
 * are at a distance of their own. The executable's code keeps the fast path
 * above (one thread-local load). */
#if defined(TUCANA_PRIV_MODULE) && TUCANA_PRIV_MODULE
extern struct tucana_priv_module tucana_priv_module_self __attribute__((visibility("hidden")));
#undef TUCANA_PRIV
#define TUCANA_PRIV(x) \
  (*(__typeof__(x) *)((char *)&(x) + tucana_priv_module_delta(&tucana_priv_module_self)))
#define tucana_priv_add_init(init) tucana_priv_module_add_init(&tucana_priv_module_self, (init))
#endif

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_PRIVATIZE_H */
