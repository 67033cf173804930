// The analysis of privatization: which variables of static storage duration
// the main file defines and may privatize, and which uses to rewrite.
#include <algorithm>
#include <map>
#include <optional>
#include <variant>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/Privatization.h"

namespace tucana::translate {

namespace {

using namespace clang;

// libc's per-rank state: the names of its functions and variables, and what
// the uses become (runtime/include/tucana/privatize.h).
const std::map<std::string, std::string>& libc_functions() {
  static const std::map<std::string, std::string> m = {
      {"rand", "tucana_rand"},         {"srand", "tucana_srand"},   {"random", "tucana_random"},
      {"srandom", "tucana_srandom"},   {"strtok", "tucana_strtok"}, {"getopt", "tucana_getopt"},
      {"getopt_long", "tucana_getopt_long"}, {"getopt_long_only", "tucana_getopt_long_only"},
  };
  return m;
}
const std::map<std::string, std::string>& libc_variables() {
  static const std::map<std::string, std::string> m = {
      {"optind", "(*tucana_priv_optind())"},
      {"optarg", "(*tucana_priv_optarg())"},
      {"opterr", "(*tucana_priv_opterr())"},
      {"optopt", "(*tucana_priv_optopt())"},
  };
  return m;
}

// The name the linker knows `d` by (mangled in C++).
std::string linker_name(MangleContext& mangle, const NamedDecl* d) {
  std::string name;
  llvm::raw_string_ostream os(name);
  if (mangle.shouldMangleDeclName(d))
    mangle.mangleName(isa<FunctionDecl>(d) ? GlobalDecl(cast<FunctionDecl>(d)) : GlobalDecl(cast<VarDecl>(d)), os);
  else
    os << d->getName();
  return os.str();
}

// A pointer to an object (whose value can be the address of a variable).
bool is_object_pointer(QualType t) {
  return t->isPointerType() && !t->getPointeeType()->isFunctionType();
}

// How a variable is treated. ImageAddress: a constant pointer (shared, it
// cannot be written) whose value may be the address of a privatized
// variable's image: each read adds the running subrank's delta when it
// points into the image.
enum class Treatment { Private, MaybePrivate, ImageAddress, Shared };

class Analyzer : public RecursiveASTVisitor<Analyzer> {
 public:
  Analyzer(ASTContext& ctx, const AnnotationList& annotations, const PrivatizationOptions& options)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), diags_(ctx.getDiagnostics()),
        options_(options) {
    for (const Annotation& a : annotations.all())
      if (a.kind == AnnotationKind::Shared && !a.broken && in_main(a.hash_loc)) shared_pragmas_.push_back(&a);
  }

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  PrivatizationPlan run();

  bool VisitVarDecl(VarDecl* v);
  bool VisitDeclRefExpr(DeclRefExpr* e);
  bool VisitCompoundLiteralExpr(CompoundLiteralExpr* e);
  bool VisitOMPExecutableDirective(OMPExecutableDirective* d);
  bool VisitStringLiteral(StringLiteral* s);
  bool VisitOMPThreadPrivateDecl(OMPThreadPrivateDecl* d);

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(loc); }
  // The file that `loc` is expanded in.
  FileID file_of(SourceLocation loc) const { return sm_.getFileID(sm_.getExpansionLoc(loc)); }
  llvm::StringRef text_of(FileID f) const { return sm_.getBufferData(f); }
  // A file this translation rewrites: the main file, or one of the
  // program's own headers when options_.headers.
  bool own_file(FileID f);
  // `loc` is expanded in a file this translation rewrites ("main" for short:
  // before headers were rewritten, that was the main file only).
  bool in_main(SourceLocation loc) { return loc.isValid() && own_file(file_of(loc)); }
  std::string name_of(const VarDecl* v) const { return v->getQualifiedNameAsString(); }
  void warn(SourceLocation loc, Diag id, const VarDecl* v, const std::string& why) {
    // Once per variable and reason, and once per place (a template and its
    // instantiations are one place).
    if (!warned_.insert({v->getCanonicalDecl(), why}).second) return;
    if (!warned_at_.insert({loc.getRawEncoding(), why}).second) return;
    report(diags_, loc, id) << name_of(v) << why;
  }

  bool marked_shared(const VarDecl* v) const;
  std::optional<std::string> cannot_privatize(const VarDecl* def) const;
  std::optional<std::string> cannot_register_threadprivate(const VarDecl* def) const;
  bool is_dynamic(const VarDecl* v) const;
  // Whether `init` names a privatized variable or a privatized compound
  // literal (after pass 1, when they are known).
  bool names_private(const Expr* init);
  // Constants of the main file whose initializers take privatized
  // addresses: a pointer is read with the subrank's delta added
  // (ImageAddress), anything else is warned about.
  void constants_with_private_addresses();
  // File-scope compound literals of the main file that become privatized
  // variables (C); the others are warned about.
  void file_scope_literals();
  // The type of `v` written so that it means the same at namespace scope;
  // empty when it cannot be (a local class).
  std::string hoisted_type(const VarDecl* v) const;
  Treatment treatment(const VarDecl* v);
  bool unevaluated_or_constant_context(const Expr* e);
  // The main-file text range [begin, end) that `e` was written as; none when
  // it is spelled in a macro defined outside the main file.
  // `loc` is on the line of a #pragma (an OpenMP clause, say).
  bool in_pragma_line(SourceLocation loc) const;
  // (The file and range, in a PrivateUse with no replacement yet.)
  std::optional<PrivateUse> written_range(const Expr* e);
  // The use `e` written as `replacement` (none when it is spelled in a
  // macro defined outside the main file).
  std::optional<PrivateUse> use_at(const Expr* e, std::string replacement);
  // `errno` (libc's macro for (*__errno_location())) written in the main
  // file becomes (*tucana_priv_errno()): a compiler may keep the address
  // __errno_location returned across a blocking call, after which the
  // subrank may run on another worker thread.
  std::optional<PrivateUse> errno_use(const DeclRefExpr* e);
  // What the use `e` becomes; none when it stays.
  std::optional<PrivateUse> use_of(const DeclRefExpr* e, bool in_initializer);
  // The text [from, to) with the uses inside `init` rewritten; *names_private
  // tells whether one of them was a privatized variable.
  std::string rewritten_text(const Expr* init, FileID file, unsigned from, unsigned to, bool* names_private = nullptr);
  // Offset just past `v`'s declarator (its name and the array or function
  // parts after it): where an attribute goes.
  unsigned declarator_end(const VarDecl* v) const;
  // Offset of the ';' that ends the declaration of `v` (at nesting depth 0);
  // *more = whether other declarators follow v's (a ',' at depth 0).
  std::optional<unsigned> declaration_semicolon(const VarDecl* v, bool* more = nullptr) const;
  // No other declarator of its declaration comes before v's.
  bool first_declarator(const VarDecl* v) const;

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  DiagnosticsEngine& diags_;
  const PrivatizationOptions& options_;
  std::map<FileID, bool> own_files_;
  std::vector<const Annotation*> shared_pragmas_;
  struct MacroArgumentUse {
    const DeclRefExpr* ref;
    const VarDecl* var;
    PrivateUse use;
  };
  std::vector<MacroArgumentUse> macro_argument_uses_;         // pass 2
  struct Stringized {
    unsigned call;                // the outermost macro call (raw location)
    SourceLocation operator_at;   // its '#' in the macro's definition
    std::string text;
  };
  // Whether `a` and `b` are in one #define (one line, or lines continued
  // with a backslash).
  bool same_macro_definition(SourceLocation a, SourceLocation b) const {
    if (a.isInvalid() || b.isInvalid() || sm_.getFileID(a) != sm_.getFileID(b)) return false;
    unsigned x = sm_.getFileOffset(a), y = sm_.getFileOffset(b);
    if (x > y) std::swap(x, y);
    llvm::StringRef between = sm_.getBufferData(sm_.getFileID(a)).substr(x, y - x);
    for (std::size_t i = between.find('\n'); i != llvm::StringRef::npos; i = between.find('\n', i + 1))
      if (i == 0 || between.rtrim(" \t\r").size() == 0 || between.substr(0, i).rtrim(" \t\r").back() != '\\') return false;
    return true;
  }
  std::vector<Stringized> stringized_;  // pass 2
  void warn_stringized_uses();
  std::vector<const VarDecl*> candidates_;          // definitions in the main file, in order
  std::vector<const VarDecl*> constants_;           // constant definitions in the main file with initializers
  std::vector<const CompoundLiteralExpr*> file_literals_;  // file-scope compound literals of the main file
  std::map<std::pair<FileID, unsigned>, std::string> literal_names_;  // privatized literals by place
  std::map<const VarDecl*, Treatment> treatments_;  // by canonical declaration
  // Pass 1: where each threadprivate directive is (by canonical variable).
  std::map<const VarDecl*, SourceLocation> threadprivate_directives_;
  // Threadprivate static locals moved to file scope: their new names.
  std::map<const VarDecl*, const PrivatizationPlan::ThreadPrivateLocal*> threadprivate_locals_;
  std::variant<PrivatizationPlan::ThreadPrivateLocal, std::string> hoist_threadprivate_local(const VarDecl* v);
  std::map<const VarDecl*, std::size_t> private_index_;
  std::set<std::pair<const VarDecl*, std::string>> warned_;
  std::set<std::pair<unsigned, std::string>> warned_at_;
  std::map<std::pair<FileID, unsigned>, PrivateUse> uses_;  // by place
  // OpenMP constructs whose clauses give a global a copy of the construct's
  // own (private, firstprivate, reduction, ...): inside, its name means that
  // copy, which is not rewritten. The construct's range and the variable.
  std::vector<std::pair<SourceRange, const VarDecl*>> omp_own_copies_;
  std::set<unsigned> omp_private_names_;  // raw locations of names in `private(...)`: no warning
  bool finding_uses_ = false;  // pass 2
  std::map<std::pair<FileID, unsigned>, int> declaration_begins_;  // variables by where their declaration begins
  PrivatizationPlan plan_;
};

bool Analyzer::marked_shared(const VarDecl* v) const {
  unsigned at = offset(sm_.getExpansionLoc(v->getBeginLoc()));
  FileID file = file_of(v->getBeginLoc());
  const DeclContext* scope = v->getDeclContext()->getRedeclContext();
  for (const Annotation* a : shared_pragmas_) {
    unsigned p = offset(sm_.getExpansionLoc(a->end_loc));
    if (a->names.empty()) {
      // `#pragma tucana shared` alone: the declaration right after it.
      if (p > at || file_of(a->end_loc) != file) continue;
      llvm::StringRef between = text_of(file).substr(p, at - p);
      if (between.trim().empty()) return true;
      continue;
    }
    for (const Dependency& n : a->names) {
      if (n.name != v->getName()) continue;
      // The same scope: a pragma in a function names that function's statics.
      SourceLocation where = sm_.getExpansionLoc(a->hash_loc);
      const auto* fn = dyn_cast<FunctionDecl>(scope);
      if (fn) {
        SourceRange body = fn->getSourceRange();
        if (sm_.isBeforeInTranslationUnit(where, sm_.getExpansionLoc(body.getBegin())) ||
            sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(body.getEnd()), where))
          continue;
      }
      return true;
    }
  }
  return false;
}

bool Analyzer::is_dynamic(const VarDecl* v) const {
  if (!lo_.CPlusPlus) return false;
  if (v->needsDestruction(ctx_) != QualType::DK_none) return true;
  const VarDecl* def = v->getDefinition();
  if (!def) def = v;
  return def->hasInit() && !def->hasConstantInitialization();
}

std::string Analyzer::hoisted_type(const VarDecl* v) const {
  QualType t = v->getType();
  const Type* base = t->getBaseElementTypeUnsafe();
  if (const TagDecl* tag = base->getAsTagDecl())
    if (tag->getParentFunctionOrMethod() || !tag->getIdentifier()) return "";
  PrintingPolicy policy(lo_);
  policy.PrintCanonicalTypes = true;
  policy.FullyQualifiedName = true;
  policy.SuppressScope = false;
  return t.getAsString(policy);
}

// The definition of `v` in this translation unit, or its C tentative
// definition (`int x;`); null when it is only declared here.
static const VarDecl* definition_of(const VarDecl* v) {
  if (const VarDecl* def = v->getDefinition()) return def;
  for (const VarDecl* r : v->redecls())
    if (r->isThisDeclarationADefinition() == VarDecl::TentativeDefinition) return r;
  return nullptr;
}

// Why the threadprivate definition `def` cannot have its values kept per
// subrank and per thread (tucana_priv_threadprivate); none when it can.
std::optional<std::string> Analyzer::cannot_register_threadprivate(const VarDecl* def) const {
  const char* keep_out = "; keep per-rank values out of it (a threadprivate copy of a privatized variable, set in "
                         "each parallel region, works)";
  if (def->isStaticLocal())
    return "it is an OpenMP threadprivate static local, which the runtime cannot reach to keep one per subrank and "
           "thread: make it a threadprivate variable at file scope" + std::string(keep_out);
  if (def->isStaticDataMember() || def->isTemplated())
    return "it is an OpenMP threadprivate static data member, which the runtime does not keep one per subrank and "
           "thread" + std::string(keep_out);
  if (lo_.CPlusPlus && (!def->getType().isTriviallyCopyableType(ctx_) || is_dynamic(def)))
    return "it is OpenMP threadprivate with a constructor or destructor: the runtime moves threadprivate values "
           "between subranks by copying their bytes" + std::string(keep_out);
  if (def->getType()->isIncompleteType() || def->getType()->isVariablyModifiedType())
    return "it is OpenMP threadprivate of a type with no fixed size" + std::string(keep_out);
  std::string name = def->getQualifiedNameAsString();
  if (name.find("(anonymous") != std::string::npos || def->getLocation().isMacroID())
    return "it is OpenMP threadprivate in an anonymous namespace or declared by a macro, where the translator "
           "cannot name it" + std::string(keep_out);
  return std::nullopt;
}

// Why the definition `def` (in the main file) cannot be privatized exactly;
// none when it can.
std::optional<std::string> Analyzer::cannot_privatize(const VarDecl* def) const {
  if (def->hasAttr<AsmLabelAttr>()) return std::string("it has an asm label");
  if (def->hasAttr<OMPThreadPrivateDeclAttr>())
    return std::string("it is OpenMP threadprivate: each thread of the process has one, and the subranks that "
                       "run on one worker thread share its copy; keep per-rank values out of threadprivate "
                       "variables (a threadprivate copy of a privatized variable, set in each parallel region, works)");
  if (def->hasAttr<SectionAttr>()) return std::string("it has a section attribute of its own");
  // (An explicit specialization, `template<> int T<double>::n = 5;`, is an
  // ordinary definition; an instantiated one is COMDAT, which GCC does not
  // place in a named section.)
  if (def->isTemplated() || (def->getTemplateSpecializationKind() != TSK_Undeclared &&
                             def->getTemplateSpecializationKind() != TSK_ExplicitSpecialization))
    return std::string("it belongs to a template (GCC cannot place the variables a template instantiates in the "
                       "section of privatized variables); make it a static member of a class that is not a "
                       "template, or a global");
  if (def->getType()->isReferenceType()) return std::string("it is a reference (it would keep referring to one object)");
  if (def->getLocation().isMacroID()) return std::string("its declaration comes from a macro");
  if (def->isInline()) return std::string("it is an inline variable (GCC cannot privatize those); define it without 'inline' in one source file");
  const auto* fn = dyn_cast<FunctionDecl>(def->getDeclContext());
  if (def->isStaticLocal() && fn && fn->isInlined() && lo_.CPlusPlus) {
    if (is_dynamic(def)) return std::string("it is a static local with dynamic initialization in an inline function");
    if (hoisted_type(def).empty()) return std::string("it is a static local of an inline function, of a local type");
  }
  if (is_dynamic(def)) {
    if (def->getType()->isArrayType()) return std::string("it is an array with dynamic initialization");
    std::string type = def->getType().getAsString(ctx_.getPrintingPolicy());
    if (type.find("(unnamed") != std::string::npos || type.find("(anonymous") != std::string::npos ||
        type.find("(lambda") != std::string::npos)
      return std::string("its type has no name to construct it by");
    if (def->isStaticLocal() && !def->getDeclContext()->isFunctionOrMethod())
      return std::string("it is a static local outside a function body");
  }
  return std::nullopt;
}

// Private: defined here and privatized. MaybePrivate: declared here, defined
// elsewhere; privatized when its definition was. Shared: everything else.
Treatment Analyzer::treatment(const VarDecl* v) {
  const VarDecl* canon = v->getCanonicalDecl();
  auto it = treatments_.find(canon);
  if (it != treatments_.end()) return it->second;
  Treatment t = Treatment::Shared;
  // A constant pointer defined in another file may hold a privatized
  // address: its reads are adjusted when they point into the image.
  if (v->hasGlobalStorage() && !isa<ParmVarDecl>(v) && (v->getType().isConstant(ctx_) || v->isConstexpr()) &&
      !definition_of(v) && v->hasExternalStorage() && is_object_pointer(v->getType()) &&
      !sm_.isInSystemHeader(sm_.getExpansionLoc(v->getLocation())) && !marked_shared(v))
    t = Treatment::ImageAddress;
  if (v->hasGlobalStorage() && !v->getType().isConstant(ctx_) && !v->isConstexpr() && !isa<ParmVarDecl>(v)) {
    const VarDecl* def = definition_of(v);
    if (def) {
      if (in_main(def->getLocation()) && private_index_.count(canon)) t = Treatment::Private;
    } else if (!sm_.isInSystemHeader(sm_.getExpansionLoc(v->getLocation())) && v->hasExternalStorage() &&
               !marked_shared(v)) {
      t = Treatment::MaybePrivate;
    }
  }
  treatments_[canon] = t;
  return t;
}

bool Analyzer::VisitVarDecl(VarDecl* v) {
  if (finding_uses_) return true;
  if (!isa<ParmVarDecl>(v) && in_main(v->getLocation()))
    ++declaration_begins_[{file_of(v->getBeginLoc()), offset(sm_.getExpansionLoc(v->getBeginLoc()))}];
  if (!v->hasGlobalStorage() || isa<ParmVarDecl>(v)) return true;
  if (!in_main(v->getLocation())) return true;
  // A definition (or a C tentative definition) written in the main file.
  if (v->isThisDeclarationADefinition() == VarDecl::DeclarationOnly) return true;
  if ((v->getType().isConstant(ctx_) && !is_dynamic(v)) || v->isConstexpr()) {
    // Constants stay shared (unless they hold privatized addresses).
    if (v->hasInit()) constants_.push_back(v);
    return true;
  }
  candidates_.push_back(v);
  return true;
}

// sizeof, alignof, typeof, decltype: the operand is not evaluated (and a
// rewrite there could change a constant expression). A static initializer
// must stay constant: it is recomputed per subrank instead (PrivateVar::reinit).
bool Analyzer::unevaluated_or_constant_context(const Expr* e) {
  DynTypedNode node = DynTypedNode::create(*e);
  for (int depth = 0; depth < 64; ++depth) {
    auto parents = ctx_.getParents(node);
    if (parents.empty()) return false;
    const DynTypedNode& p = parents[0];
    // The size of a variable-length array is evaluated (at its declaration,
    // in sizeof(T[n]), in typeof(T[n])) whatever holds the type.
    if (const auto* tl = p.get<TypeLoc>()) {
      if (auto vla = tl->getAs<VariableArrayTypeLoc>(); vla && node.get<Stmt>() == vla.getSizeExpr()) return false;
      return true;  // typeof(expr), decltype(expr)
    }
    if (p.get<UnaryExprOrTypeTraitExpr>()) return true;
    if (const auto* vd = p.get<VarDecl>()) return vd->hasGlobalStorage();
    if (p.get<FunctionDecl>() || p.get<TranslationUnitDecl>()) return false;
    // A case label's value is a constant; the statement after the label is
    // ordinary code.
    if (const auto* c = p.get<CaseStmt>()) {
      const Stmt* child = node.get<Stmt>();
      return child && (child == c->getLHS() || child == c->getRHS());
    }
    node = p;
  }
  return false;
}

bool Analyzer::own_file(FileID f) {
  if (f.isInvalid()) return false;
  if (f == sm_.getMainFileID()) return true;
  if (!options_.headers) return false;
  auto it = own_files_.find(f);
  if (it != own_files_.end()) return it->second;
  return own_files_[f] = !own_header_path(sm_, f, options_.foreign_dirs).empty();
}

bool Analyzer::in_pragma_line(SourceLocation loc) const {
  SourceLocation at = sm_.getExpansionLoc(loc);
  std::pair<FileID, unsigned> place = sm_.getDecomposedLoc(at);
  bool invalid = false;
  llvm::StringRef text = sm_.getBufferData(place.first, &invalid);
  if (invalid) return false;
  std::size_t line_begin = text.rfind('\n', place.second);
  line_begin = line_begin == llvm::StringRef::npos ? 0 : line_begin + 1;
  // (A pragma continued with backslashes: its first line.)
  while (line_begin >= 2 && text[line_begin - 2] == '\\') {
    std::size_t prev = text.rfind('\n', line_begin - 2);
    line_begin = prev == llvm::StringRef::npos ? 0 : prev + 1;
  }
  llvm::StringRef line = text.substr(line_begin).ltrim(" \t");
  if (!line.consume_front("#")) return false;
  return line.ltrim(" \t").startswith("pragma");
}

std::optional<PrivateUse> Analyzer::written_range(const Expr* e) {
  SourceLocation b = e->getBeginLoc(), end = e->getEndLoc();
  if (b.isMacroID() || end.isMacroID()) {
    // A name in a macro's argument is written where the macro is used; a
    // name in a macro's body where the macro is defined.
    b = sm_.getSpellingLoc(b);
    end = sm_.getSpellingLoc(end);
  }
  // (isInMainFile() also holds for the scratch space of a pasted token:
  // compare the buffers themselves.)
  FileID file = sm_.getFileID(b);
  if (sm_.getFileID(end) != file || !own_file(file)) return std::nullopt;
  unsigned from = offset(b);
  unsigned to = offset(Lexer::getLocForEndOfToken(end, 0, sm_, lo_));
  if (to <= from) return std::nullopt;
  return PrivateUse{file, from, to, ""};
}

std::optional<PrivateUse> Analyzer::errno_use(const DeclRefExpr* e) {
  SourceLocation loc = e->getLocation();
  if (!loc.isMacroID()) return std::nullopt;
  // Where the `errno` macro was invoked: written in the main file (in code,
  // a macro's argument or a macro's body defined there).
  SourceLocation at = sm_.getSpellingLoc(sm_.getImmediateExpansionRange(loc).getBegin());
  FileID file = sm_.getFileID(at);
  if (!own_file(file)) return std::nullopt;
  unsigned from = offset(at);
  if (text_of(file).substr(from, 5) != "errno") return std::nullopt;
  return PrivateUse{file, from, from + 5, "(*tucana_priv_errno())"};
}

std::optional<PrivateUse> Analyzer::use_at(const Expr* e, std::string replacement) {
  std::optional<PrivateUse> range = written_range(e);
  if (range) range->replacement = std::move(replacement);
  return range;
}

bool Analyzer::VisitCompoundLiteralExpr(CompoundLiteralExpr* e) {
  // Pass 1: outside functions a compound literal is an object of static
  // storage duration (C; in C++ it is a temporary).
  if (finding_uses_ || !e->isFileScope() || lo_.CPlusPlus || e->getType().isConstant(ctx_)) return true;
  if (in_main(e->getBeginLoc())) file_literals_.push_back(e);
  return true;
}

bool Analyzer::VisitOMPExecutableDirective(OMPExecutableDirective* d) {
  if (finding_uses_) return true;
  for (const OMPClause* c : d->clauses()) {
    switch (c->getClauseKind()) {
      case llvm::omp::OMPC_private:
      case llvm::omp::OMPC_firstprivate:
      case llvm::omp::OMPC_lastprivate:
      case llvm::omp::OMPC_reduction:
      case llvm::omp::OMPC_task_reduction:
      case llvm::omp::OMPC_in_reduction:
      case llvm::omp::OMPC_linear:
        break;
      default:
        continue;
    }
    for (const Stmt* child : const_cast<OMPClause*>(c)->children()) {
      const auto* ref = dyn_cast_or_null<DeclRefExpr>(child);
      const auto* v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      if (!v || !v->hasGlobalStorage()) continue;
      // (The directive's own range is its pragma line: the statement it
      // applies to is its associated statement.)
      SourceLocation end = sm_.getExpansionLoc(d->getEndLoc());
      if (d->hasAssociatedStmt() && d->getAssociatedStmt())
        end = sm_.getExpansionLoc(d->getAssociatedStmt()->getEndLoc());
      omp_own_copies_.push_back({SourceRange(sm_.getExpansionLoc(d->getBeginLoc()), end), v->getCanonicalDecl()});
      // private(x): no value flows in or out; the program means the same.
      if (c->getClauseKind() == llvm::omp::OMPC_private) omp_private_names_.insert(ref->getLocation().getRawEncoding());
    }
  }
  return true;
}

bool Analyzer::names_private(const Expr* init) {
  struct Finder : RecursiveASTVisitor<Finder> {
    Analyzer& a;
    bool found = false;
    explicit Finder(Analyzer& an) : a(an) {}
    bool VisitDeclRefExpr(DeclRefExpr* e) {
      if (const auto* v = dyn_cast<VarDecl>(e->getDecl()); v && v->hasGlobalStorage() && a.treatment(v) != Treatment::Shared)
        found = true;
      return !found;
    }
    bool VisitCompoundLiteralExpr(CompoundLiteralExpr* e) {
      SourceLocation at = a.sm_.getExpansionLoc(e->getBeginLoc());
      if (a.literal_names_.count({a.sm_.getFileID(at), a.offset(at)})) found = true;
      return !found;
    }
  } finder(*this);
  finder.TraverseStmt(const_cast<Expr*>(init));
  return finder.found;
}

void Analyzer::constants_with_private_addresses() {
  for (const VarDecl* c : constants_) {
    if (marked_shared(c) || !names_private(c->getInit())) continue;
    if (is_object_pointer(c->getType()) && !c->getType()->isReferenceType()) {
      treatments_[c->getCanonicalDecl()] = Treatment::ImageAddress;
      continue;
    }
    warn(c->getLocation(), Diag::VariableNotPrivatized, c,
         "it is a constant whose initializer takes the address of a privatized variable, so it holds the address "
         "of the copy that no subrank uses; remove 'const' (it is then privatized, its initializer recomputed "
         "for each subrank)");
  }
}

void Analyzer::file_scope_literals() {
  for (const CompoundLiteralExpr* e : file_literals_) {
    std::string shown = "compound literal";
    std::optional<PrivateUse> range = written_range(e);
    llvm::StringRef text = range ? text_of(range->file) : "";
    const InitListExpr* init = dyn_cast_or_null<InitListExpr>(e->getInitializer());
    // (not an optional: GCC 12 warns that one might be read uninitialized)
    PrivateUse init_range;
    if (init) init_range = written_range(init).value_or(init_range);
    // The declaration at file scope that holds it.
    const VarDecl* holder = nullptr;
    DynTypedNode node = DynTypedNode::create(*e);
    for (int depth = 0; depth < 64 && !holder; ++depth) {
      auto parents = ctx_.getParents(node);
      if (parents.empty()) break;
      holder = parents[0].get<VarDecl>();
      node = parents[0];
    }
    std::string why;
    if (!range || init_range.end == 0 || init_range.file != range->file || e->getBeginLoc().isMacroID() || e->getEndLoc().isMacroID())
      why = "it is written in a macro, which tucanacc does not rewrite";
    else if (!holder || !holder->getDeclContext()->isFileContext() || file_of(holder->getOuterLocStart()) != range->file)
      why = "it is not in the initializer of a variable";
    else if (names_private(init))
      why = "its initializer takes the address of a privatized variable";
    if (range) shown = text.substr(range->begin, std::min(range->end - range->begin, 40u)).str();
    if (!why.empty()) {
      if (warned_at_.insert({sm_.getExpansionLoc(e->getBeginLoc()).getRawEncoding(), why}).second)
        report(diags_, e->getBeginLoc(), Diag::VariableNotPrivatized)
            << shown << why + "; define a variable for it and take its address";
      continue;
    }
    PrivateLiteral lit;
    lit.file = range->file;
    lit.begin = range->begin;
    lit.end = range->end;
    lit.hoist_at = offset(sm_.getExpansionLoc(holder->getOuterLocStart()));
    lit.name = "tucana_literal_" + std::to_string(lit.begin);
    if (lit.file != sm_.getMainFileID()) lit.name += "_" + std::to_string(lit.file.getHashValue());
    lit.literal_text = text.substr(lit.begin, lit.end - lit.begin).str();
    lit.init_text = text.substr(init_range.begin, init_range.end - init_range.begin).str();
    literal_names_[{lit.file, lit.begin}] = lit.name;
    plan_.literals.push_back(lit);
  }
}

bool Analyzer::VisitDeclRefExpr(DeclRefExpr* e) {
  if (!finding_uses_) return true;
  if (std::optional<PrivateUse> u = use_of(e, /*in_initializer=*/false)) {
    uses_.emplace(std::make_pair(u->file, u->begin), *u);  // a macro body used many times: once
    // A macro's argument: the macro may also turn it into a string.
    if (const auto* v = dyn_cast<VarDecl>(e->getDecl());
        v && v->hasGlobalStorage() && sm_.isMacroArgExpansion(e->getLocation()))
      macro_argument_uses_.push_back({e, v, *u});
  }
  return true;
}

bool Analyzer::VisitOMPThreadPrivateDecl(OMPThreadPrivateDecl* d) {
  if (finding_uses_) return true;
  for (const Expr* e : d->varlists())
    if (const auto* ref = dyn_cast<DeclRefExpr>(e))
      if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()))
        threadprivate_directives_.emplace(v->getCanonicalDecl(), d->getLocation());
  return true;
}

// A threadprivate static local at file scope (see ThreadPrivateLocal), or
// why it cannot be.
std::variant<PrivatizationPlan::ThreadPrivateLocal, std::string> Analyzer::hoist_threadprivate_local(const VarDecl* v) {
  const std::string why = "it is an OpenMP threadprivate static local that Tucana cannot move to file scope (";
  const std::string what = "): make it a threadprivate variable at file scope; keep per-rank values out of it";
  const auto* fn = dyn_cast<FunctionDecl>(v->getDeclContext());
  if (!fn || fn->isTemplated() || (lo_.CPlusPlus && fn->isInlined()) || isa<CXXMethodDecl>(fn))
    return why + "it is in a template, an inline function or a member function" + what;
  if (v->getLocation().isMacroID() || is_dynamic(v) || hoisted_type(v).empty() ||
      v->getType()->isVariablyModifiedType())
    return why + "a macro declares it, or its type is local or has a constructor" + what;
  auto directive = threadprivate_directives_.find(v->getCanonicalDecl());
  if (directive == threadprivate_directives_.end() || directive->second.isMacroID())
    return why + "its directive comes from a macro" + what;
  bool more = false;
  std::optional<unsigned> semi = declaration_semicolon(v, &more);
  if (!semi || more || !first_declarator(v)) return why + "it is declared together with other variables" + what;
  const Decl* top = fn;
  while (!top->getDeclContext()->isTranslationUnit() && !isa<LinkageSpecDecl>(top->getDeclContext()))
    top = cast<Decl>(top->getDeclContext());
  FileID file = file_of(v->getLocation());
  SourceLocation hoist = sm_.getExpansionLoc(top->getBeginLoc());
  if (file_of(top->getBeginLoc()) != file || file_of(directive->second) != file)
    return why + "its function begins in another file" + what;
  llvm::StringRef text = text_of(file);
  unsigned at = offset(sm_.getExpansionLoc(directive->second));
  std::size_t line_begin = text.rfind('\n', at);
  line_begin = line_begin == llvm::StringRef::npos ? 0 : line_begin + 1;
  std::size_t line_end = text.find('\n', at);
  if (line_end == llvm::StringRef::npos) line_end = text.size();
  llvm::StringRef line = text.slice(line_begin, line_end).rtrim(" \t\r");
  if (line.endswith("\\") || !line.ltrim(" \t").startswith("#"))
    return why + "its directive is continued on another line" + what;
  std::string fn_name = fn->getNameAsString();
  for (char& c : fn_name)
    if (!llvm::isAlnum(c) && c != '_') c = '_';
  PrivatizationPlan::ThreadPrivateLocal t;
  t.file = file;
  t.original = v->getName().str();
  t.name = "tucana_" + fn_name + "_" + t.original + "_" + std::to_string(offset(sm_.getExpansionLoc(v->getLocation())));
  unsigned begin = offset(sm_.getExpansionLoc(v->getBeginLoc()));
  unsigned declarator_end_at = declarator_end(v);
  t.definition = "static " + hoisted_type(v) + " " + t.name +
                 text.substr(declarator_end_at, *semi - declarator_end_at).str() + ";";
  t.hoist_at = offset(hoist);
  t.hoist_line = sm_.getLineNumber(file, t.hoist_at);
  t.decl_begin = begin;
  t.decl_end = *semi + 1;
  t.pragma_begin = static_cast<unsigned>(line_begin) + static_cast<unsigned>(line.size() - line.ltrim(" \t").size());
  t.pragma_end = static_cast<unsigned>(line_begin + line.size());
  return t;
}

bool Analyzer::VisitStringLiteral(StringLiteral* s) {
  if (!finding_uses_ || s->getCharByteWidth() != 1) return true;
  // Its pieces made by the macro operator # (spelled in the scratch space).
  for (auto it = s->tokloc_begin(); it != s->tokloc_end(); ++it) {
    SourceLocation piece = *it;
    if (!piece.isMacroID() || !sm_.isWrittenInScratchSpace(sm_.getSpellingLoc(piece))) continue;
    // Passed on as another macro's argument: back to where it was made.
    while (sm_.isMacroArgExpansion(piece)) piece = sm_.getImmediateSpellingLoc(piece);
    if (!piece.isMacroID()) continue;
    stringized_.push_back({sm_.getExpansionLoc(piece).getRawEncoding(),
                           sm_.getSpellingLoc(sm_.getImmediateExpansionRange(piece).getBegin()), s->getString().str()});
  }
  return true;
}

// Uses in a macro's argument that the same macro call turns into a string
// (`#define SHOW(v) printf(#v " = %d\n", v)`): the rewrite is in the
// argument's text, so the string changes too. Warned, not guessed at.
void Analyzer::warn_stringized_uses() {
  for (const MacroArgumentUse& m : macro_argument_uses_) {
    std::string written = text_of(m.use.file).substr(m.use.begin, m.use.end - m.use.begin).str();
    unsigned call = sm_.getExpansionLoc(m.ref->getLocation()).getRawEncoding();
    // (The macro whose argument the use is; a string made in the same
    // outermost call by another macro, `SHOW_AS(STR(x), x)`, is fine.)
    SourceLocation in_body = m.ref->getLocation();
    while (sm_.isMacroArgExpansion(in_body)) in_body = sm_.getImmediateExpansionRange(in_body).getBegin();
    in_body = sm_.getSpellingLoc(in_body);
    for (const Stringized& str : stringized_) {
      if (str.call != call || !same_macro_definition(str.operator_at, in_body) ||
          str.text.find(written) == std::string::npos)
        continue;
      warn(m.ref->getLocation(), Diag::UseNotPrivatized, m.var,
           "the macro this use is passed to also turns it into a string (#), which then reads '" + m.use.replacement +
               "' instead of '" + written +
               "': pass the name to the macro once more in an argument that is only made a string, or write the "
               "string out");
      break;
    }
  }
}

// In a static initializer (which must stay constant) the rewrite is for the
// per-subrank copy of the initializer.
std::optional<PrivateUse> Analyzer::use_of(const DeclRefExpr* e, bool in_initializer) {
  const ValueDecl* d = e->getDecl();
  if (!in_main(e->getLocation()) && !e->getLocation().isMacroID()) {
    if (const auto* v = dyn_cast<VarDecl>(d);
        v && v->hasGlobalStorage() && treatment(v) != Treatment::Shared && treatment(v) != Treatment::ImageAddress &&
        !sm_.isInSystemHeader(sm_.getExpansionLoc(e->getLocation())))
      // Code in a header (an inline function) is not rewritten.
      warn(e->getLocation(), Diag::UseNotPrivatized, v,
           "this use is in a header, which tucanacc does not rewrite: it reads the copy shared by all subranks");
    return std::nullopt;
  }
  if (const auto* f = dyn_cast<FunctionDecl>(d)) {
    if (f->getIdentifier() && f->getName() == "__errno_location") return errno_use(e);
    // libc's functions with per-rank state.
    if (!f->getDeclContext()->getRedeclContext()->isTranslationUnit() || !f->getIdentifier() ||
        !sm_.isInSystemHeader(sm_.getExpansionLoc(f->getLocation())))
      return std::nullopt;
    auto it = libc_functions().find(f->getName().str());
    if (it == libc_functions().end()) return std::nullopt;
    return use_at(e, it->second);
  }
  const auto* v = dyn_cast<VarDecl>(d);
  if (!v || !v->hasGlobalStorage()) return std::nullopt;
  if (auto it = threadprivate_locals_.find(v->getCanonicalDecl()); it != threadprivate_locals_.end()) {
    // A threadprivate static local moved to file scope: its new name (in
    // clauses too), except in its own directive, which goes.
    std::optional<PrivateUse> u = use_at(e, it->second->name);
    if (u && u->file == it->second->file && u->begin >= it->second->pragma_begin && u->end <= it->second->pragma_end)
      return std::nullopt;
    return u;
  }
  if (v->getIdentifier() && v->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      sm_.isInSystemHeader(sm_.getExpansionLoc(v->getLocation()))) {
    auto it = libc_variables().find(v->getName().str());
    if (it == libc_variables().end()) return std::nullopt;
    return use_at(e, it->second);
  }
  Treatment t = treatment(v);
  if (t == Treatment::ImageAddress) {
    if (!in_initializer && unevaluated_or_constant_context(e)) return std::nullopt;
    auto parents = ctx_.getParents(*e);
    const auto* cast = parents.empty() ? nullptr : parents[0].get<ImplicitCastExpr>();
    auto range = written_range(e);
    if (!cast || cast->getCastKind() != CK_LValueToRValue || !range) {
      warn(e->getLocation(), Diag::VariableNotPrivatized, v,
           range ? "it is a constant pointer that may hold the address of a privatized variable, and this use is "
                   "not a read of its value (its address is taken or a reference bound to it); remove 'const'"
                 : "it is a constant pointer that may hold the address of a privatized variable, and this use "
                   "comes from a macro defined in a header, which tucanacc does not rewrite");
      return std::nullopt;
    }
    std::string written = text_of(range->file).substr(range->begin, range->end - range->begin).str();
    range->replacement = "((__typeof__(" + written + "))tucana_priv_extern(" + written + "))";
    return range;
  }
  if (t == Treatment::Shared) {
    const VarDecl* def = definition_of(v);
    if (def && !in_main(def->getLocation()) && !sm_.isInSystemHeader(sm_.getExpansionLoc(def->getLocation())) &&
        !def->getType().isConstant(ctx_) && !def->isConstexpr())
      warn(def->getLocation(), Diag::VariableNotPrivatized, v,
           "it is defined in a header, which tucanacc does not rewrite; define it in a source file (and declare "
           "it 'extern' in the header)");
    return std::nullopt;
  }
  if (!in_initializer && unevaluated_or_constant_context(e)) return std::nullopt;
  if (in_pragma_line(e->getLocation())) {
    // An OpenMP clause names variables, not lvalues: TUCANA_PRIV(x) there
    // would not compile.
    if (!omp_private_names_.count(e->getLocation().getRawEncoding()))
      warn(e->getLocation(), Diag::UseNotPrivatized, v,
           "this use is in a '#pragma' clause (OpenMP's firstprivate, lastprivate, reduction, shared, ...), which "
           "can only name the copy shared by all subranks: use a local variable in the clause and copy it from or "
           "to the global");
    return std::nullopt;
  }
  // Inside an OpenMP construct that gives the variable a copy of its own,
  // the name means that copy.
  for (const auto& [range, own] : omp_own_copies_)
    if (own == v->getCanonicalDecl() && !sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(e->getLocation()), range.getBegin()) &&
        !sm_.isBeforeInTranslationUnit(range.getEnd(), sm_.getExpansionLoc(e->getLocation())))
      return std::nullopt;
  auto range = written_range(e);
  if (!range) {
    if (sm_.isWrittenInScratchSpace(sm_.getSpellingLoc(e->getLocation())))
      warn(e->getLocation(), Diag::UseNotPrivatized, v,
           "this use is a name made by token pasting (##) in a macro, which tucanacc cannot rewrite: it reads the "
           "copy shared by all subranks; write the name out or pass it to the macro whole");
    else
      warn(e->getLocation(), Diag::UseNotPrivatized, v,
           "this use comes from a macro defined in a header, which tucanacc does not rewrite");
    return std::nullopt;
  }
  std::string written = text_of(range->file).substr(range->begin, range->end - range->begin).str();
  PrivateUse use = *range;
  use.replacement = "TUCANA_PRIV(" + written + ")";
  if (t == Treatment::MaybePrivate) {
    use.replacement = "TUCANA_PRIV_EXTERN(" + written + ")";
    return use;
  }
  const PrivateVar& pv = plan_.vars[private_index_.at(v->getCanonicalDecl())];
  if (!pv.accessor.empty()) {
    use.replacement = "(*static_cast<" + pv.type_text + " *>(" + pv.accessor + "()))";
  } else if (!pv.hoisted_name.empty()) {
    use.replacement = "TUCANA_PRIV(" + pv.hoisted_name + ")";
  } else if (pv.dynamic && pv.decl->isStaticLocal()) {
    std::string n = pv.decl->getName().str();
    use.replacement = "(*(" + n + "__tucana_type *)&TUCANA_PRIV(" + n + "__tucana_storage))";
  }
  return use;
}

// The text [from, to) of `file` with the uses inside `init` rewritten.
std::string Analyzer::rewritten_text(const Expr* init, FileID file, unsigned from, unsigned to, bool* names_private) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const DeclRefExpr*> refs;
    std::vector<const CompoundLiteralExpr*> literals;
    bool VisitDeclRefExpr(DeclRefExpr* e) { return refs.push_back(e), true; }
    bool VisitCompoundLiteralExpr(CompoundLiteralExpr* e) { return literals.push_back(e), true; }
  } finder;
  finder.TraverseStmt(const_cast<Expr*>(init));
  if (names_private) *names_private = false;
  std::map<unsigned, PrivateUse> edits;  // by offset
  for (const DeclRefExpr* e : finder.refs) {
    std::optional<PrivateUse> u = use_of(e, /*in_initializer=*/true);
    if (!u || u->file != file || u->begin < from || u->end > to) continue;
    edits.emplace(u->begin, *u);
    if (const auto* v = dyn_cast<VarDecl>(e->getDecl()); names_private && v && treatment(v) != Treatment::Shared)
      *names_private = true;
  }
  for (const CompoundLiteralExpr* e : finder.literals) {
    SourceLocation at = sm_.getExpansionLoc(e->getBeginLoc());
    auto it = literal_names_.find({sm_.getFileID(at), offset(at)});
    if (it == literal_names_.end()) continue;
    const PrivateLiteral& lit = *std::find_if(plan_.literals.begin(), plan_.literals.end(), [&](const PrivateLiteral& l) {
      return l.file == it->first.first && l.begin == it->first.second;
    });
    if (lit.file != file || lit.begin < from || lit.end > to) continue;
    // Literals hold no privatized uses (those are refused): no overlap.
    edits.emplace(lit.begin, PrivateUse{lit.file, lit.begin, lit.end, "TUCANA_PRIV(" + lit.name + ")"});
    if (names_private) *names_private = true;
  }
  llvm::StringRef text = text_of(file);
  std::string out;
  unsigned at = from;
  for (auto& [b, u] : edits) {
    if (b < at) continue;
    out += text.substr(at, b - at).str() + u.replacement;
    at = u.end;
  }
  return out + text.substr(at, to - at).str();
}

unsigned Analyzer::declarator_end(const VarDecl* v) const {
  SourceLocation name = sm_.getExpansionLoc(v->getLocation());
  SourceLocation last = name;
  if (TypeSourceInfo* tsi = v->getTypeSourceInfo()) {
    SourceLocation type_end = sm_.getExpansionLoc(tsi->getTypeLoc().getEndLoc());
    if (type_end.isValid() && sm_.isBeforeInTranslationUnit(last, type_end)) last = type_end;
  }
  return offset(Lexer::getLocForEndOfToken(last, 0, sm_, lo_));
}

std::optional<unsigned> Analyzer::declaration_semicolon(const VarDecl* v, bool* more) const {
  if (more) *more = false;
  SourceLocation at = sm_.getExpansionLoc(v->getEndLoc());
  Token tok;
  if (Lexer::getRawToken(at, tok, sm_, lo_, true)) return std::nullopt;
  at = tok.getEndLoc();
  int depth = 0;
  for (int n = 0; n < 100000 && !Lexer::getRawToken(at, tok, sm_, lo_, /*IgnoreWhiteSpace=*/true); ++n) {
    if (tok.is(tok::eof)) return std::nullopt;
    if (tok.isOneOf(tok::l_paren, tok::l_brace, tok::l_square)) ++depth;
    if (tok.isOneOf(tok::r_paren, tok::r_brace, tok::r_square)) --depth;
    if (depth < 0) return std::nullopt;
    if (depth == 0 && tok.is(tok::semi)) return offset(tok.getLocation());
    if (depth == 0 && tok.is(tok::comma) && more) *more = true;
    at = tok.getEndLoc();
  }
  return std::nullopt;
}

bool Analyzer::first_declarator(const VarDecl* v) const {
  auto it = declaration_begins_.find({file_of(v->getBeginLoc()), offset(sm_.getExpansionLoc(v->getBeginLoc()))});
  return it == declaration_begins_.end() || it->second == 1;
}

PrivatizationPlan Analyzer::run() {
  TranslationUnitDecl* tu = ctx_.getTranslationUnitDecl();
  // Pass 1: the definitions in the main file.
  TraverseDecl(tu);
  std::unique_ptr<MangleContext> mangle(ctx_.createMangleContext());
  for (const VarDecl* v : candidates_) {
    const VarDecl* canon = v->getCanonicalDecl();
    if (private_index_.count(canon)) {  // another definition of the same variable (C tentative)
      continue;
    }
    if (marked_shared(v)) {
      plan_.shared_names.push_back(v->isStaticLocal() ? v->getName().str() : name_of(v));
      continue;
    }
    if (v->hasAttr<OMPThreadPrivateDeclAttr>() && v->isStaticLocal()) {
      // Moved to file scope (under a name of its own), then registered.
      auto hoisted = hoist_threadprivate_local(v);
      if (auto* why = std::get_if<std::string>(&hoisted)) {
        warn(v->getLocation(), Diag::VariableNotPrivatized, v, *why);
      } else {
        plan_.threadprivate_locals.push_back(std::get<PrivatizationPlan::ThreadPrivateLocal>(hoisted));
        plan_.threadprivate.push_back(plan_.threadprivate_locals.back().name);
      }
      treatments_[canon] = Treatment::Shared;
      continue;
    }
    if (v->hasAttr<OMPThreadPrivateDeclAttr>()) {
      // Left as the compiler makes it (a copy per thread) and registered:
      // the runtime keeps its values per subrank and per thread.
      if (auto why = cannot_register_threadprivate(v))
        warn(v->getLocation(), Diag::VariableNotPrivatized, v, *why);
      else if (v->isThisDeclarationADefinition() != VarDecl::DeclarationOnly || !v->getDefinition())
        plan_.threadprivate.push_back(lo_.CPlusPlus && !v->getDeclContext()->isTranslationUnit()
                                          ? "::" + v->getQualifiedNameAsString()
                                          : v->getName().str());
      treatments_[canon] = Treatment::Shared;
      continue;
    }
    if (auto why = cannot_privatize(v)) {
      warn(v->getLocation(), Diag::VariableNotPrivatized, v, *why);
      treatments_[canon] = Treatment::Shared;
      continue;
    }
    PrivateVar pv;
    pv.decl = v;
    pv.file = file_of(v->getLocation());
    pv.dynamic = is_dynamic(v);
    pv.declarator_end = declarator_end(v);
    pv.weak = options_.common && !lo_.CPlusPlus && !v->getDefinition() && v->isFileVarDecl() &&
              v->hasExternalFormalLinkage() && v->getTSCSpec() == TSCS_unspecified;
    for (const VarDecl* r : v->redecls())  // C allows several (tentative) definitions
      if (r->isThisDeclarationADefinition() != VarDecl::DeclarationOnly && in_main(r->getLocation()))
        pv.definition_ends.push_back({file_of(r->getLocation()), r == v ? pv.declarator_end : declarator_end(r)});
    bool more = false;
    std::optional<unsigned> semi = declaration_semicolon(v, &more);
    bool alone = semi && !more && first_declarator(v);  // the only declarator of its declaration
    if (pv.dynamic && !alone) {  // replaced whole
      warn(v->getLocation(), Diag::VariableNotPrivatized, v,
           "its declaration declares other variables too; declare it alone");
      treatments_[canon] = Treatment::Shared;
      continue;
    }
    pv.semicolon = semi.value_or(0);
    if (const auto* fn = dyn_cast<FunctionDecl>(v->getDeclContext());
        v->isStaticLocal() && fn && fn->isInlined() && lo_.CPlusPlus) {
      if (!alone) {
        warn(v->getLocation(), Diag::VariableNotPrivatized, v,
             "it is a static local of an inline function declared together with other variables; declare it alone");
        treatments_[canon] = Treatment::Shared;
        continue;
      }
      std::string fn_name = fn->getNameAsString();  // "operator()" for a lambda: made an identifier
      for (char& c : fn_name)
        if (!llvm::isAlnum(c) && c != '_') c = '_';
      pv.hoisted_name = "tucana_" + fn_name + "_" + v->getName().str() + "_" +
                        std::to_string(offset(sm_.getExpansionLoc(v->getLocation())));
      // An inline function of a header, with external linkage, is one
      // function in the program, whichever files define it: so is its
      // static, a weak definition under a name every file gives it alike.
      if (pv.file != sm_.getMainFileID() && fn->isExternallyVisible()) {
        std::string fn_symbol = linker_name(*mangle, fn);
        for (char& c : fn_symbol)
          if (!llvm::isAlnum(c) && c != '_') c = '_';
        pv.hoisted_name = "tucana_" + fn_symbol + "_" + v->getName().str();
        pv.hoisted_weak = true;
      }
      // Before the outermost declaration that holds the function.
      const Decl* top = fn;
      while (!top->getDeclContext()->isTranslationUnit() && !isa<LinkageSpecDecl>(top->getDeclContext()))
        top = cast<Decl>(top->getDeclContext());
      pv.hoist_at = offset(sm_.getExpansionLoc(top->getBeginLoc()));
      if (file_of(top->getBeginLoc()) != pv.file) {
        warn(v->getLocation(), Diag::VariableNotPrivatized, v,
             "it is a static local of an inline function whose enclosing declaration begins in another file");
        treatments_[canon] = Treatment::Shared;
        continue;
      }
      pv.type_text = hoisted_type(v);
      // A member function defined in its class: the type may be the class
      // itself (the singleton idiom), complete only after the class. The
      // variable is defined after the class, and the function reaches it
      // through an accessor declared before.
      if (isa<TagDecl>(top)) {
        SourceLocation at = sm_.getExpansionLoc(top->getEndLoc());
        Token tok;
        std::optional<unsigned> semi;
        for (int n = 0; n < 100000 && !Lexer::getRawToken(at, tok, sm_, lo_, /*IgnoreWhiteSpace=*/true); ++n) {
          if (tok.is(tok::eof)) break;
          if (tok.is(tok::semi)) {
            semi = offset(tok.getLocation());
            break;
          }
          at = tok.getEndLoc();
        }
        if (!semi || file_of(top->getEndLoc()) != pv.file) {
          warn(v->getLocation(), Diag::VariableNotPrivatized, v,
               "it is a static local of a member function defined in its class, and the class's end was not found");
          treatments_[canon] = Treatment::Shared;
          continue;
        }
        pv.hoist_after = *semi + 1;
        pv.accessor = "tucana_addr_" + pv.hoisted_name;
      }
    }
    if (pv.dynamic) {
      pv.type_text = v->getType().getAsString(ctx_.getPrintingPolicy());
      if (!v->isStaticLocal()) {
        if (v->isExternallyVisible()) {
          pv.symbol = linker_name(*mangle, v);
        } else {
          // Internal linkage: a name no other file can have (the file's
          // contents and the place in it).
          pv.symbol = "__tucana_priv_" + llvm::utohexstr(llvm::xxHash64(sm_.getBufferData(sm_.getMainFileID()))) +
                      "_" + std::to_string(offset(sm_.getExpansionLoc(v->getLocation()))) + "_" + v->getName().str();
          if (pv.file != sm_.getMainFileID()) pv.symbol += "_" + std::to_string(pv.file.getHashValue());
        }
      }
    }
    private_index_[canon] = plan_.vars.size();
    plan_.vars.push_back(pv);
  }
  file_scope_literals();
  constants_with_private_addresses();
  // Pass 2: the uses (now that the private variables are known).
  for (const PrivatizationPlan::ThreadPrivateLocal& t : plan_.threadprivate_locals)
    for (const VarDecl* v : candidates_)
      if (v->isStaticLocal() && t.decl_begin == offset(sm_.getExpansionLoc(v->getBeginLoc())) &&
          t.file == file_of(v->getLocation()))
        threadprivate_locals_[v->getCanonicalDecl()] = &t;
  finding_uses_ = true;
  TraverseDecl(tu);
  warn_stringized_uses();
  // A privatized literal's text becomes its name (in a static initializer,
  // which stays constant: the image's literal; reinit gives the subrank's).
  for (const PrivateLiteral& l : plan_.literals)
    uses_.emplace(std::make_pair(l.file, l.begin), PrivateUse{l.file, l.begin, l.end, l.name});
  // Static initializers that name privatized variables: recomputed per subrank.
  for (PrivateVar& pv : plan_.vars) {
    if (pv.dynamic || !pv.decl->hasInit()) continue;
    SourceRange r = pv.decl->getInit()->getSourceRange();
    unsigned from = offset(sm_.getExpansionLoc(r.getBegin()));
    unsigned to = offset(Lexer::getLocForEndOfToken(sm_.getExpansionLoc(r.getEnd()), 0, sm_, lo_));
    if (file_of(r.getBegin()) != pv.file || file_of(r.getEnd()) != pv.file) continue;
    std::string text = rewritten_text(pv.decl->getInit(), pv.file, from, to, &pv.reinit);
    if (pv.reinit) pv.init_text = std::move(text);
  }
  // Dynamic initializers: the text after the declarator, as the arguments of
  // a placement new: `(args)`, `{list}`, `(expr)` for `= expr`, or nothing.
  for (PrivateVar& pv : plan_.vars) {
    if (!pv.dynamic) continue;
    unsigned from = pv.declarator_end, to = pv.semicolon;
    std::string text = pv.decl->hasInit() ? rewritten_text(pv.decl->getInit(), pv.file, from, to)
                                          : text_of(pv.file).substr(from, to - from).str();
    llvm::StringRef t = llvm::StringRef(text).trim();
    if (t.consume_front("=")) {
      t = t.trim();
      pv.init_text = t.startswith("{") ? t.str() : "(" + t.str() + ")";
    } else {
      pv.init_text = t.str();
    }
  }
  // thread_local keywords.
  for (const PrivateVar& pv : plan_.vars) {
    if (pv.decl->getTSCSpec() == TSCS_unspecified || pv.dynamic) continue;  // a dynamic one is replaced whole
    for (const Decl* r : pv.decl->redecls()) {
      if (!in_main(r->getLocation())) continue;
      // The keyword is among the tokens before the name.
      SourceLocation at = sm_.getExpansionLoc(r->getBeginLoc());
      unsigned stop = offset(sm_.getExpansionLoc(cast<VarDecl>(r)->getLocation()));
      Token tok;
      while (offset(at) < stop && !Lexer::getRawToken(at, tok, sm_, lo_, /*IgnoreWhiteSpace=*/true)) {
        llvm::StringRef text = Lexer::getSpelling(tok, sm_, lo_);
        if (text == "thread_local" || text == "__thread" || text == "_Thread_local") {
          plan_.tls_keywords.push_back(
              {sm_.getFileID(tok.getLocation()), offset(tok.getLocation()), offset(tok.getLocation()) + tok.getLength()});
          break;
        }
        at = tok.getEndLoc();
      }
    }
  }
  for (auto& [off, u] : uses_) plan_.uses.push_back(u);
  for (const Annotation* a : shared_pragmas_)
    plan_.shared_pragmas.push_back(
        {file_of(a->hash_loc), offset(sm_.getExpansionLoc(a->hash_loc)), offset(sm_.getExpansionLoc(a->end_loc))});
  return std::move(plan_);
}

}  // namespace

std::string own_header_path(const SourceManager& sm, FileID f, const std::vector<std::string>& foreign_dirs) {
  // A file (not the scratch space of pasted tokens, not a built-in buffer)
  // that is no system header and none of Tucana's.
  OptionalFileEntryRef entry = sm.getFileEntryRefForID(f);
  if (!entry || f == sm.getMainFileID() || SrcMgr::isSystem(sm.getFileCharacteristic(sm.getLocForStartOfFile(f))))
    return "";
  llvm::SmallString<256> path(entry->getName());
  sm.getFileManager().makeAbsolutePath(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  for (const std::string& dir : foreign_dirs)
    if (llvm::StringRef(path).startswith(llvm::StringRef(dir).rtrim('/').str() + "/")) return "";
  return std::string(path);
}

PrivatizationPlan analyze_privatization(ASTContext& ctx, const AnnotationList& annotations,
                                        const PrivatizationOptions& options) {
  DiagnosticsEngine& diags = ctx.getDiagnostics();
  // tucanacc runs the translator with -w (the compiler warns about the
  // program once, later); the translator's own warnings must still show.
  bool ignoring = diags.getIgnoreAllWarnings();
  diags.setIgnoreAllWarnings(false);
  PrivatizationPlan plan = Analyzer(ctx, annotations, options).run();
  diags.setIgnoreAllWarnings(ignoring);
  return plan;
}

}  // namespace tucana::translate
