/* libtucana_module.a: linked (whole) by tucanacc into every program and
 * shared library it builds. Registers this module's image of privatized
 * variables (tucana/privatize.h, "Shared libraries") before the module's own
 * constructors run, so that their tucana_priv_add_init calls find it. */
#include <tucana/privatize.h>

/* This module's own section bounds (hidden: a shared library's are not the
 * program's); weak: null in a module without privatized variables. */
extern char __start_tucana_priv[] __attribute__((weak, visibility("hidden")));
extern char __stop_tucana_priv[] __attribute__((weak, visibility("hidden")));

__attribute__((visibility("hidden"))) struct tucana_priv_module tucana_priv_module_self;

/* 101: before the constructors of default priority (the translator's
 * tucana_priv_add_init calls are C++ dynamic initialization). */
__attribute__((constructor(101))) static void tucana_priv_module_register(void) {
  tucana_priv_register_module(&tucana_priv_module_self, __start_tucana_priv, __stop_tucana_priv);
}
