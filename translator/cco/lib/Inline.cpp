// The inliner of `tucana-cco rewrite`: a call statement of a loop body whose
// callee holds the loop's communication (NAS IS's `rank(iteration);`) is
// replaced by the callee's body, so that the pipelining sees Before, Comm and
// After as statements of the loop (docs/advise-check-rewrite.md, "Inlining").
//
// The callee's parameters and top-level locals become variables declared at
// the top of the caller's body, renamed `<callee>_<name>`; the parameters are
// assigned the arguments and the locals' declarations become assignments of
// their initializers. The inlined text carries #line directives back to the
// callee, so that every report and the rewritten file name the callee's lines.
// Anything whose meaning inlining could change is refused with the reason.
#include <functional>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "tucana/cco/Cco.h"
#include "tucana/translate/SuperblockEmitter.h"

namespace tucana::cco {

using namespace clang;

namespace {

// Whether `d` (or one of its redeclarations) is declared before `at`.
bool declared_before(const SourceManager& sm, const Decl* d, SourceLocation at) {
  for (const Decl* r : d->redecls()) {
    SourceLocation l = sm.getExpansionLoc(r->getLocation());
    if (!sm.isInMainFile(l) || sm.isBeforeInTranslationUnit(l, at)) return true;
  }
  return false;
}

}  // namespace

std::string inline_call(ASTContext& ctx, translate::EditSet& edits, const FunctionDecl* caller, const CallExpr* call,
                        bool block, const std::string& file, std::set<std::string>& taken) {
  SourceManager& sm = ctx.getSourceManager();
  const LangOptions& lo = ctx.getLangOpts();
  const FunctionDecl* callee = call->getDirectCallee();
  const FunctionDecl* def = nullptr;
  if (!callee || !callee->hasBody(def) || !def) return "the callee has no body in this file";
  std::string fname = def->getNameAsString();
  auto refuse = [&](const std::string& why) { return "'" + fname + "' cannot be inlined: " + why; };
  auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  if (!body || !sm.isInMainFile(sm.getExpansionLoc(def->getLocation())))
    return refuse("it is not defined in this file");
  if (isa<CXXMethodDecl>(def) || def->isVariadic() || def->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return refuse("only plain functions are inlined (not members, templates or variadic functions)");
  if (def == caller) return refuse("it is the function that calls it");
  if (!body->getLBracLoc().isFileID() || !body->getRBracLoc().isFileID() || !call->getBeginLoc().isFileID() ||
      !call->getEndLoc().isFileID())
    return refuse("its body or the call is written through a macro");
  SourceLocation semi = Lexer::findLocationAfterToken(call->getEndLoc(), tok::semi, sm, lo, false);
  if (semi.isInvalid()) return refuse("the call is not a statement of its own");

  // The caller's own names: the inlined text must not see them instead of
  // the globals the callee means.
  std::set<std::string> caller_names;
  for (const ParmVarDecl* p : caller->parameters()) caller_names.insert(p->getNameAsString());
  std::function<void(const Stmt*)> collect = [&](const Stmt* s) {
    if (!s) return;
    if (auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (auto* nd = dyn_cast<NamedDecl>(d)) caller_names.insert(nd->getNameAsString());
    for (const Stmt* c : s->children()) collect(c);
  };
  collect(caller->getBody());
  SourceLocation caller_begin = sm.getExpansionLoc(caller->getBeginLoc());

  // The hoisted variables: the parameters and the body's top-level locals.
  std::map<const VarDecl*, std::string> renamed;
  std::vector<const VarDecl*> hoisted;
  auto new_name = [&](const VarDecl* v) {
    std::string base = fname + "_" + v->getNameAsString(), n = base;
    // (Not an identifier of the translation unit: the file, its headers, its macros.)
    for (int k = 1; taken.count(n) || ctx.Idents.find(n) != ctx.Idents.end(); ++k) n = base + "_" + std::to_string(k);
    taken.insert(n);
    return n;
  };
  auto hoistable = [&](const VarDecl* v) -> std::string {
    QualType t = v->getType();
    if (v->isStaticLocal() || v->hasExternalStorage()) return "it has the static or extern local '" + v->getNameAsString() + "'";
    if (t->isVariablyModifiedType()) return "the size of its array '" + v->getNameAsString() + "' is computed at run time";
    if (t->isReferenceType()) return "'" + v->getNameAsString() + "' is a reference";
    if (lo.CPlusPlus && !t.isTrivialType(ctx)) return "'" + v->getNameAsString() + "' is not of a trivial type";
    if (t.isConstQualified() && t->isArrayType()) return "'" + v->getNameAsString() + "' is a const array";
    if (const TagDecl* tag = t->getAsTagDecl(); tag && tag->getParentFunctionOrMethod() == def)
      return "the type of '" + v->getNameAsString() + "' is declared inside it";
    if (const auto* td = t->getAs<TypedefType>(); td && td->getDecl()->getParentFunctionOrMethod() == def)
      return "the type of '" + v->getNameAsString() + "' is declared inside it";
    if (v->getInit() && (isa<InitListExpr>(v->getInit()->IgnoreImplicit()) || t->isArrayType()))
      return "'" + v->getNameAsString() + "' has a brace initializer";
    return "";
  };
  for (const ParmVarDecl* p : def->parameters()) {
    if (p->getName().empty()) continue;
    if (std::string why = hoistable(p); !why.empty()) return refuse(why);
    renamed[p] = new_name(p);
    hoisted.push_back(p);
  }
  const Stmt* last = body->body_empty() ? nullptr : body->body_back();
  std::vector<const ReturnStmt*> drop;  // a trailing `return;`
  for (const Stmt* s : body->body()) {
    if (auto* ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : ds->decls()) {
        auto* v = dyn_cast<VarDecl>(d);
        if (!v) return refuse("it declares a type or a function in its body");
        if (std::string why = hoistable(v); !why.empty()) return refuse(why);
        renamed[v] = new_name(v);
        hoisted.push_back(v);
      }
      if (!ds->getBeginLoc().isFileID() || !ds->getEndLoc().isFileID())
        return refuse("a declaration of its locals is written through a macro");
    }
    if (auto* r = dyn_cast<ReturnStmt>(s); r && s == last && !r->getRetValue()) drop.push_back(r);
  }

  // Walk the body: what cannot be inlined, and the renames.
  translate::EditSet body_edits;
  llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  auto off = [&](SourceLocation l) { return sm.getFileOffset(l); };
  std::string why;
  std::function<void(const Stmt*)> walk = [&](const Stmt* s) {
    if (!s || !why.empty()) return;
    if (auto* r = dyn_cast<ReturnStmt>(s); r && std::find(drop.begin(), drop.end(), r) == drop.end()) {
      why = refuse(std::string(r->getRetValue() ? "it returns a value" : "it returns before its end") + " (line " +
                   std::to_string(presumed_line(sm, r->getBeginLoc())) + ")");
      return;
    }
    if (isa<LabelStmt>(s) || isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) {
      why = refuse("it has labels or gotos (line " + std::to_string(presumed_line(sm, s->getBeginLoc())) + ")");
      return;
    }
    if (auto* ref = dyn_cast<DeclRefExpr>(s)) {
      const ValueDecl* d = ref->getDecl();
      auto* v = dyn_cast<VarDecl>(d);
      if (v && renamed.count(v)) {
        SourceLocation l = ref->getLocation();
        if (l.isMacroID()) {
          if (!sm.isMacroArgExpansion(l)) {
            why = refuse("its local '" + v->getNameAsString() + "' is used inside the body of a macro (line " +
                         std::to_string(presumed_line(sm, l)) + ")");
            return;
          }
          l = sm.getSpellingLoc(l);
        }
        body_edits.replace(off(l), static_cast<unsigned>(v->getName().size()), renamed[v]);
      } else if (v && v->getParentFunctionOrMethod() == def) {
        // A local of a nested scope stays where it is declared.
      } else if (d && !isa<ParmVarDecl>(d)) {
        std::string n = d->getNameAsString();
        if (caller_names.count(n)) {
          why = refuse("it uses '" + n + "', which '" + caller->getNameAsString() + "' declares itself");
          return;
        }
        if (!declared_before(sm, d, caller_begin)) {
          why = refuse("'" + n + "' is declared after '" + caller->getNameAsString() + "'");
          return;
        }
      }
    }
    for (const Stmt* c : s->children()) walk(c);
  };
  walk(body);
  if (!why.empty()) return why;
  // Declarations become assignments of their initializers.
  for (const Stmt* s : body->body()) {
    auto* ds = dyn_cast<DeclStmt>(s);
    if (!ds) continue;
    SourceLocation from = ds->getBeginLoc();
    bool first = true;
    for (const Decl* d : ds->decls()) {
      auto* v = cast<VarDecl>(d);
      const Expr* init = v->getInit();
      SourceLocation to = init ? init->getBeginLoc() : Lexer::getLocForEndOfToken(v->getEndLoc(), 0, sm, lo);
      if (init && !to.isFileID()) to = sm.getExpansionRange(to).getBegin();
      std::string text = std::string(first ? "" : "; ") + (init ? renamed[v] + " = " : "");
      body_edits.replace(off(from), off(to) - off(from), text);
      from = init ? Lexer::getLocForEndOfToken(sm.getExpansionRange(init->getEndLoc()).getEnd(), 0, sm, lo) : to;
      first = false;
    }
  }
  for (const ReturnStmt* r : drop) {
    SourceLocation after = Lexer::findLocationAfterToken(r->getEndLoc(), tok::semi, sm, lo, false);
    if (!r->getBeginLoc().isFileID() || after.isInvalid()) return refuse("its last 'return;' is written through a macro");
    body_edits.replace(off(r->getBeginLoc()), off(after) - off(r->getBeginLoc()), ";");
  }
  bool ok = true;
  std::string inner = body_edits.extract(buffer, off(body->getLBracLoc()) + 1, off(body->getRBracLoc()), ok);
  if (!ok) return refuse("its edits overlap (a bug of tucana-cco: please report it)");

  // The edits of the file: the hoisted declarations at the top of the
  // caller's body (on its brace's line), the call replaced by the body.
  auto* caller_body = dyn_cast_or_null<CompoundStmt>(caller->getBody());
  if (!caller_body || !caller_body->getLBracLoc().isFileID()) return refuse("the caller's body is written through a macro");
  std::string decls;
  PrintingPolicy policy = ctx.getPrintingPolicy();
  for (const VarDecl* v : hoisted) {
    std::string d;
    llvm::raw_string_ostream os(d);
    v->getType().getUnqualifiedType().print(os, policy, renamed[v]);
    decls += " " + os.str() + ";";
  }
  std::string text = std::string(block ? "{ " : "") + "/* tucana-cco: '" + fname + "' inlined */";
  for (unsigned k = 0; k < def->getNumParams() && k < call->getNumArgs(); ++k) {
    const ParmVarDecl* p = def->getParamDecl(k);
    if (!renamed.count(p)) continue;
    const Expr* a = call->getArg(k);
    if (!a->getBeginLoc().isFileID() || !a->getEndLoc().isFileID())
      return refuse("argument " + std::to_string(k + 1) + " is written through a macro");
    text += " " + renamed[p] + " = (" +
            Lexer::getSourceText(CharSourceRange::getTokenRange(a->getSourceRange()), sm, lo).str() + ");";
  }
  edits.insert(off(caller_body->getLBracLoc()) + 1, translate::kAfterInPlace, decls);
  // A static callee may have no call left (TUCANA_CCO_UNUSED: the rewrite defines it).
  if (def->getStorageClass() == SC_Static && def->getBeginLoc().isFileID() && taken.insert(" unused " + fname).second)
    edits.insert(off(def->getBeginLoc()), translate::kInPlace, "TUCANA_CCO_UNUSED ");
  text += "\n" + translate::line_directive(presumed_line(sm, body->getLBracLoc()), file) + "\n" +
          std::string(sm.getExpansionColumnNumber(body->getLBracLoc()), ' ') + inner + "\n" +
          translate::line_directive(presumed_line(sm, semi), file) + "\n" +
          std::string(sm.getExpansionColumnNumber(semi) - 1, ' ') + (block ? "}" : "");
  edits.replace(off(call->getBeginLoc()), off(semi) - off(call->getBeginLoc()), text);
  return "";
}

}  // namespace tucana::cco
