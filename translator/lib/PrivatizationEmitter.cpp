// Emission of privatization: small edits at each definition and each use
// (see Privatization.h for their forms and docs/privatization.md).
#include <cassert>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/Privatization.h"

namespace tucana::translate {

namespace {

using namespace clang;

class Emitter {
 public:
  Emitter(ASTContext& ctx, FileEdits& edits)
      : ctx_(ctx), sm_(ctx.getSourceManager()), edits_(edits) {}

  void variable(const PrivateVar& pv, int index);

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  void plain(const PrivateVar& pv, int index);
  void hoist(const PrivateVar& pv);
  void dynamic_global(const PrivateVar& pv, int index);
  void dynamic_local(const PrivateVar& pv);
  // The per-subrank construction of `pv` at address expression `where`.
  std::string construct(const PrivateVar& pv, const std::string& type, const std::string& where) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  FileEdits& edits_;
};

void Emitter::variable(const PrivateVar& pv, int index) {
  if (!pv.hoisted_name.empty())
    hoist(pv);
  else if (!pv.dynamic)
    plain(pv, index);
  else if (pv.decl->isStaticLocal())
    dynamic_local(pv);
  else
    dynamic_global(pv, index);
}

// The definition goes into the section; a static initializer that names
// privatized variables is recomputed per subrank.
void Emitter::plain(const PrivateVar& pv, int index) {
  for (auto [file, at] : pv.definition_ends)
    edits_.of(file).insert(at, kInPlace, pv.weak ? " TUCANA_PRIVATE __attribute__((weak))" : " TUCANA_PRIVATE");
  if (!pv.reinit || pv.semicolon == 0) return;
  const std::string n = std::to_string(index);
  std::string name = pv.decl->getQualifiedNameAsString();
  if (pv.decl->isStaticLocal()) name = pv.decl->getName().str();
  std::string copy = "__typeof__(" + name + ") tucana_value = " + pv.init_text +
                     "; __builtin_memcpy(&TUCANA_PRIV(" + name + "), &tucana_value, sizeof tucana_value);";
  std::string text;
  if (pv.decl->isStaticLocal()) {
    // Before the subrank's first pass here (C initializes statics before main).
    text = " static char tucana_reinit_done_" + n + " TUCANA_PRIVATE; if (!TUCANA_PRIV(tucana_reinit_done_" + n +
           ")) { " + copy + " TUCANA_PRIV(tucana_reinit_done_" + n + ") = 1; }";
  } else {
    text = " static void tucana_reinit_" + n + "(void) { " + copy +
           " } __attribute__((constructor)) static void tucana_reinit_register_" + n +
           "(void) { tucana_priv_add_init(&tucana_reinit_" + n + "); }";
  }
  edits_.of(pv.file).insert(pv.semicolon + 1, kInPlace, text);
}

void Emitter::hoist(const PrivateVar& pv) {
  const VarDecl* v = pv.decl;
  llvm::StringRef text = sm_.getBufferData(pv.file);
  std::string init = text.substr(pv.declarator_end, pv.semicolon - pv.declarator_end).str();
  std::string name = v->getName().str();
  std::string definition = "/* tucana: '" + name + "', a static local of an inline function, per subrank */ " +
                           (pv.hoisted_weak ? "__attribute__((weak)) " : "static ") + pv.type_text + " " +
                           pv.hoisted_name + " TUCANA_PRIVATE" + init + "; ";
  if (pv.accessor.empty()) {
    edits_.of(pv.file).insert(pv.hoist_at, kAfterInPlace, definition);
  } else {
    // (inline for a weak variable: one accessor program-wide, like it)
    std::string linkage = pv.hoisted_weak ? "inline " : "static ";
    edits_.of(pv.file).insert(pv.hoist_at, kAfterInPlace, linkage + "void *" + pv.accessor + "(); ");
    edits_.of(pv.file).insert(pv.hoist_after, kAfterInPlace,
                              " " + definition + linkage + "void *" + pv.accessor + "() { return &TUCANA_PRIV(" +
                                  pv.hoisted_name + "); }");
  }
  unsigned begin = offset(v->getBeginLoc());
  edits_.of(pv.file).replace(begin, pv.semicolon + 1 - begin, "/* tucana: static '" + name + "' is " + pv.hoisted_name + " */");
}

std::string Emitter::construct(const PrivateVar& pv, const std::string& type, const std::string& where) const {
  std::string s = "void *tucana_p = (void *)" + where + "; ::new (tucana_p) " + type + pv.init_text + ";";
  if (pv.decl->needsDestruction(ctx_) != QualType::DK_none)
    s += " tucana_priv_atexit([](void *q) { static_cast<" + type + " *>(q)->~" + type + "(); }, tucana_p);";
  return s;
}

// A C++ variable at namespace scope (or a static data member) with dynamic
// initialization: raw storage under the variable's own linker name,
// constructed once per subrank; other translation units see no difference.
void Emitter::dynamic_global(const PrivateVar& pv, int index) {
  const std::string n = std::to_string(index);
  const VarDecl* v = pv.decl;
  std::string type = "tucana_type_" + n;
  bool member = v->isStaticDataMember();
  // The name as written at the definition (A::count for a member).
  unsigned name_begin = offset(v->getQualifierLoc() ? v->getQualifierLoc().getBeginLoc() : v->getLocation());
  std::string name = sm_.getBufferData(pv.file).substr(name_begin, pv.declarator_end - name_begin).str();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/* tucana: '" << v->getQualifiedNameAsString() << "' is constructed once per subrank */ ";
  os << "using " << type << " = " << pv.type_text << "; ";
  if (!member) os << "extern " << type << " " << name << " __asm__(\"" << pv.symbol << "\"); ";
  os << "alignas(" << type << ") unsigned char tucana_storage_" << n << "[sizeof(" << type << ")] __asm__(\""
     << pv.symbol << "\") TUCANA_PRIVATE";
  if (!v->isExternallyVisible()) os << " __attribute__((visibility(\"hidden\")))";
  os << "; static void tucana_init_" << n << "(void) { " << construct(pv, type, "&TUCANA_PRIV(" + name + ")")
     << " } static const int tucana_registered_" << n << " __attribute__((unused)) = (tucana_priv_add_init(&tucana_init_"
     << n << "), 0);";
  os.flush();
  unsigned begin = offset(v->getBeginLoc());
  edits_.of(pv.file).replace(begin, pv.semicolon + 1 - begin, s);
}

// A C++ static local with dynamic initialization: per-subrank storage and
// guard, constructed on the subrank's first pass.
void Emitter::dynamic_local(const PrivateVar& pv) {
  const VarDecl* v = pv.decl;
  std::string n = v->getName().str();
  std::string type = n + "__tucana_type", storage = n + "__tucana_storage", done = n + "__tucana_done";
  std::string s = "/* tucana: '" + n + "' is constructed once per subrank */ using " + type + " = " + pv.type_text +
                  "; alignas(" + type + ") static unsigned char " + storage + "[sizeof(" + type +
                  ")] TUCANA_PRIVATE; static bool " + done + " TUCANA_PRIVATE; if (!TUCANA_PRIV(" + done + ")) { " +
                  construct(pv, type, "&TUCANA_PRIV(" + storage + ")") + " TUCANA_PRIV(" + done + ") = true; }";
  unsigned begin = offset(v->getBeginLoc());
  edits_.of(pv.file).replace(begin, pv.semicolon + 1 - begin, s);
}

unsigned sm_end(ASTContext& ctx) {
  const SourceManager& sm = ctx.getSourceManager();
  return sm.getBufferData(sm.getMainFileID()).size();
}

}  // namespace

void emit_privatization(ASTContext& ctx, const PrivatizationPlan& plan, FileEdits& out) {
  if (plan.empty()) return;
  Emitter e(ctx, out);
  for (std::size_t i = 0; i < plan.vars.size(); ++i) e.variable(plan.vars[i], static_cast<int>(i));
  for (const PrivateLiteral& l : plan.literals)
    out.of(l.file).insert(l.hoist_at, kAfterInPlace,
               "/* tucana: a compound literal, per subrank */ static __typeof__(" + l.literal_text + ") " + l.name +
                   " TUCANA_PRIVATE = " + l.init_text + "; ");
  for (std::size_t i = 0; i < plan.uses.size(); ++i) {
    const PrivateUse& u = plan.uses[i];
    assert(u.begin < u.end && !u.replacement.empty() && "a privatized use with no text");
    assert((i == 0 || plan.uses[i - 1].file != u.file || plan.uses[i - 1].end <= u.begin) &&
           "privatized uses unsorted or overlapping");
    out.of(u.file).replace(u.begin, u.end - u.begin, u.replacement);
  }
  for (const PrivatizationPlan::Range& r : plan.shared_pragmas)
    out.of(r.file).replace(r.begin, r.end - r.begin,
                           "/* tucana: shared by the subranks of a process (#pragma tucana shared) */");
  if (!plan.shared_names.empty()) {
    std::string names;
    for (const std::string& n : plan.shared_names) names += n + "\\0";
    unsigned end = sm_end(ctx);
    out.main_edits.insert(end, kEndOfFile,
               "\nstatic const char tucana_names_marked_shared[] __attribute__((section(\"tucana_shared_names\"), used)) = \"" +
                   names + "\";\n");
  }
  for (const PrivatizationPlan::ThreadPrivateLocal& t : plan.threadprivate_locals) {
    // The directive needs a line of its own; #line puts the numbering back.
    out.of(t.file).insert(t.hoist_at, kAfterInPlace,
                          "/* tucana: threadprivate static '" + t.original + "', at file scope */ " + t.definition +
                              "\n#pragma omp threadprivate(" + t.name + ")\n#line " + std::to_string(t.hoist_line) +
                              "\n");
    out.of(t.file).replace(t.decl_begin, t.decl_end - t.decl_begin,
                           "/* tucana: threadprivate static '" + t.original + "' is " + t.name + " */");
    out.of(t.file).replace(t.pragma_begin, t.pragma_end - t.pragma_begin,
                           "/* tucana: its threadprivate directive is at file scope */");
  }
  if (!plan.threadprivate.empty()) {
    // For tucanacc's list of shared variables at the link, which leaves them out.
    std::string names;
    for (const std::string& n : plan.threadprivate) names += (n.rfind("::", 0) == 0 ? n.substr(2) : n) + "\\0";
    out.main_edits.insert(sm_end(ctx), kEndOfFile,
                          "\nstatic const char tucana_names_threadprivate[] __attribute__((section(\"tucana_threadprivate_names\"), used)) = \"" +
                              names + "\";\n");
  }
  for (std::size_t i = 0; i < plan.threadprivate.size(); ++i) {
    const std::string& name = plan.threadprivate[i];
    const std::string n = std::to_string(i);
    // At the end, on lines of their own: nothing above moves.
    out.main_edits.insert(sm_end(ctx), kEndOfFileLast,
                          "\n/* tucana: threadprivate '" + name + "' is kept per subrank and per thread */ static void *"
                              "tucana_threadprivate_address_" + n + "(void) { return (void *)&" + name +
                              "; } __attribute__((constructor)) static void tucana_threadprivate_register_" + n +
                              "(void) { tucana_priv_threadprivate(&tucana_threadprivate_address_" + n + ", sizeof " +
                              name + "); }\n");
  }
  for (const PrivatizationPlan::Range& r : plan.tls_keywords)
    out.of(r.file).replace(r.begin, r.end - r.begin, "/* tucana: one per subrank, not per thread */");
  // Before everything (it only needs <stddef.h>, so feature-test macros
  // defined later in the file still work).
  out.main_edits.insert(0, kInclude, "#include <tucana/privatize.h>\n");
}

}  // namespace tucana::translate
