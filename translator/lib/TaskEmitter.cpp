// Tasks, the emission: each task's statement (with the edits of the other
// stages inside it) moved into a function before the enclosing one, with
// the struct of its captures; the spawn, the taskloop's chunks and taskwait
// in its place. The analysis is TaskAnalysis.cpp. See Tasks.h.
#include <algorithm>
#include <cctype>
#include <map>

#include "clang/AST/ASTContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"
#include "tucana/translate/CanonicalLoop.h"
#include "tucana/translate/Diagnostics.h"
#include "tucana/translate/StatementText.h"
#include "tucana/translate/SuperblockEmitter.h"
#include "tucana/translate/Tasks.h"

namespace tucana::translate {

namespace {

using namespace clang;

class Emitter {
 public:
  Emitter(ASTContext& ctx, const TaskPlan& plan, const PrivatizationPlan& priv, std::string display, EditSet& edits)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), plan_(plan), display_(std::move(display)),
        edits_(edits), buffer_(sm_.getBufferData(sm_.getMainFileID())), policy_(ctx.getPrintingPolicy()) {
    // Privatized globals as they are written in uses, for clause texts.
    for (const PrivateUse& u : priv.uses) {
      if (u.file != sm_.getMainFileID()) continue;
      llvm::StringRef written = buffer_.substr(u.begin, u.end - u.begin);
      if (!written.empty() && written.find_first_not_of(
                                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == llvm::StringRef::npos)
        privatized_[written.str()] = u.replacement;
    }
  }
  bool run();

 private:
  unsigned offset(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }
  unsigned line_of(unsigned off) const { return sm_.getLineNumber(sm_.getMainFileID(), off); }
  std::string line_directive(unsigned off) const { return translate::line_directive(line_of(off), display_); }
  // Spaces (tabs kept) up to `off` on its line, so moved text keeps its columns.
  std::string indent_to(unsigned off) const {
    unsigned start = off;
    while (start > 0 && buffer_[start - 1] != '\n') --start;
    std::string s = buffer_.substr(start, off - start).str();
    for (char& c : s)
      if (c != '\t') c = ' ';
    return s;
  }
  std::string declare(QualType t, const std::string& name) const {
    if (lo_.CPlusPlus) t = TypeName::getFullyQualifiedType(t, ctx_, false);
    std::string s;
    llvm::raw_string_ostream os(s);
    t.print(os, policy_, name);
    return os.str();
  }
  // `v` as the spawn (in the parent, maybe itself an outlined task) names it.
  std::string access(const Task& t, const VarDecl* v) const {
    if (t.outer >= 0 && !lo_.CPlusPlus)
      for (const TaskCapture& c : plan_.tasks[static_cast<std::size_t>(t.outer)].captures)
        if (c.var == v && c.shared) return "(*__tucana_a->" + v->getName().str() + ")";
    return v->getName().str();
  }
  std::string clause_text(const Task& t, const std::string& text) const;
  bool emit(const Task& t);
  void place_before(unsigned at, int rank, const std::string& text);
  void place_after(unsigned at, int rank, const std::string& text);

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  const TaskPlan& plan_;
  std::string display_;
  EditSet& edits_;
  llvm::StringRef buffer_;
  PrintingPolicy policy_;
  std::map<std::string, std::string> privatized_;
};

// A clause expression as written, with privatized globals rewritten as in
// the program's own uses (the pragma's tokens are not in the AST).
std::string Emitter::clause_text(const Task& t, const std::string& text) const {
  if (privatized_.empty()) return text;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {  // a literal, as is
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      out += text.substr(i, j + 1 - i);
      i = j + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      std::string word = text.substr(i, j - i);
      std::size_t k = out.find_last_not_of(' ');
      bool member = k != std::string::npos && (out[k] == '.' || (out[k] == '>' && k > 0 && out[k - 1] == '-'));
      auto it = privatized_.find(word);
      bool local = std::binary_search(t.locals.begin(), t.locals.end(), word);
      out += it != privatized_.end() && !member && !local ? it->second : word;
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

bool Emitter::run() {
  // C: references to shared variables first (each belongs to the innermost
  // task holding it; the moves below take them along).
  for (const Task& t : plan_.tasks)
    for (const TaskCapture& c : t.captures)
      for (auto [b, e] : c.refs) {
        bool nested = false;
        for (const Task& inner : plan_.tasks) {
          if (&inner == &t || inner.depth <= t.depth) continue;
          // A taskloop's header runs in the parent: only its body is inner.
          const Stmt* is = inner.loop ? inner.header.body : inner.stmt;
          if (b >= offset(is->getBeginLoc()) && e <= statement_end_offset(sm_, lo_, is)) nested = true;
        }
        if (!nested) edits_.replace(b, e - b, "(*__tucana_a->" + c.var->getName().str() + ")");
      }
  // Before the moves: a taskwait may stand in a task's statement.
  for (const Annotation* a : plan_.taskwaits)
    edits_.replace(offset(a->hash_loc), offset(a->end_loc) - offset(a->hash_loc), "tucana_taskwait();");
  // Innermost first: an outer task's statement takes an inner one's spawn.
  std::vector<const Task*> order;
  for (const Task& t : plan_.tasks) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Task* x, const Task* y) { return x->depth > y->depth; });
  for (const Task* t : order)
    if (!emit(*t)) return false;
  edits_.insert(0, kInclude, "#include <tucana/task.h>\n");
  return true;
}

bool Emitter::emit(const Task& t) {
  const bool cxx = lo_.CPlusPlus;
  const std::string fn = std::string(t.loop ? "__tucana_taskloop_" : "__tucana_task_") + std::to_string(t.index);
  const std::string args = fn + "_args";
  const Annotation& a = *t.pragma;
  const TaskloopHeader& h = t.header;
  bool ok = true;

  // The parent's side: one line in place of the pragma.
  std::string spawn;
  llvm::raw_string_ostream sp(spawn);
  sp << "{ ";
  std::string start, end, step;
  if (t.loop) {
    start = edits_.extract(buffer_, h.start_begin, h.start_end, ok);
    end = ok ? edits_.extract(buffer_, h.end_begin, h.end_end, ok) : "";
    step = h.step_end > h.step_begin && ok ? edits_.extract(buffer_, h.step_begin, h.step_end, ok) : "1";
    if (!ok) return false;
    // START, END and STEP once, before the loop, as OpenMP does.
    sp << "long long __tucana_start = (long long)(" << start << "), __tucana_end = (long long)(" << end
       << "), __tucana_step = " << (h.direction < 0 ? "-" : "") << "(long long)(" << step << "); ";
    CanonicalLoop counted;
    counted.op = h.op, counted.direction = h.direction, counted.unsigned_compare = h.unsigned_compare;
    std::string n = trip_count_expression(counted, "__tucana_start", "__tucana_end", "__tucana_step");
    sp << "long long __tucana_n = " << n << "; ";
    // A loop variable of the parent's is not set (OpenMP's private loop
    // variable): it may now be unused there.
    if (!isa<DeclStmt>(cast<ForStmt>(t.stmt)->getInit())) sp << "(void)" << h.var->getName() << "; ";
  }
  bool has_args = t.loop || !t.captures.empty();
  if (has_args) sp << "struct " << args << " __tucana_args; ";
  if (t.loop) sp << "__tucana_args.__tucana_start = __tucana_start; __tucana_args.__tucana_step = __tucana_step; ";
  for (const TaskCapture& c : t.captures) {
    std::string name = c.var->getName().str(), from = access(t, c.var);
    QualType type = c.var->getType().getNonReferenceType();
    // A byte copy where an assignment may not do: arrays, structs (const
    // members; C++: trivially copyable, checked, maybe not assignable).
    bool bytes = type->isArrayType() || type->isRecordType();
    if (c.shared)
      sp << "__tucana_args." << name << " = &" << from << "; ";
    else if (bytes)
      sp << "__builtin_memcpy((void *)&__tucana_args." << name << ", (const void *)" << (cxx ? "__builtin_addressof(" : "&(")
         << from << "), sizeof __tucana_args." << name << "); ";
    else
      sp << "__tucana_args." << name << " = " << from << "; ";
  }
  if (!a.task_deps.empty()) {
    sp << "tucana_task_dep __tucana_deps[] = {";
    for (std::size_t i = 0; i < a.task_deps.size(); ++i) {
      const TaskDepend& d = a.task_deps[i];
      sp << (i ? ", " : "") << "{(const void *)&(" << clause_text(t, d.expr) << "), "
         << (d.kind == TaskDepend::In ? "TUCANA_DEP_IN" : d.kind == TaskDepend::Out ? "TUCANA_DEP_OUT" : "TUCANA_DEP_INOUT")
         << "}";
    }
    sp << "}; ";
  }
  sp << "tucana_task_attr __tucana_attr = TUCANA_TASK_ATTR_INIT; ";
  if (!a.task_deps.empty())
    sp << "__tucana_attr.deps = __tucana_deps; __tucana_attr.ndeps = " << a.task_deps.size() << "; ";
  if (!a.priority.empty()) sp << "__tucana_attr.priority = (int)(" << clause_text(t, a.priority) << "); ";
  if (a.boundary) sp << "__tucana_attr.boundary = 1; ";
  if (!a.label.empty()) sp << "__tucana_attr.name = " << a.label << "; ";
  std::string arg = has_args ? "&__tucana_args, sizeof __tucana_args" : "(const void *)0, 0";
  if (t.loop)
    sp << "tucana_taskloop(__tucana_n, "
       << (a.num_tasks.empty() ? "0" : "(long long)(" + clause_text(t, a.num_tasks) + ")") << ", "
       << (a.grainsize.empty() ? "0" : "(long long)(" + clause_text(t, a.grainsize) + ")") << ", " << fn << ", " << arg
       << ", &__tucana_attr); }";
  else
    sp << "tucana_task_spawn(" << fn << ", " << arg << ", &__tucana_attr); }";
  sp.flush();
  edits_.replace(offset(a.hash_loc), offset(a.end_loc) - offset(a.hash_loc), spawn);

  // The task's side: the moved text, with its edits.
  const Stmt* moved = t.loop ? h.body : t.stmt;
  unsigned mb = offset(moved->getBeginLoc()), me = statement_end_offset(sm_, lo_, moved);
  std::string body = edits_.extract(buffer_, mb, me, ok);
  if (!ok) return false;
  // What stays in the parent: the lines of the statement, empty.
  unsigned sb = offset(t.stmt->getBeginLoc());
  std::string blank(static_cast<std::size_t>(std::count(buffer_.begin() + sb, buffer_.begin() + me, '\n')), '\n');
  edits_.replace(sb, me - sb, blank);

  std::string text;
  llvm::raw_string_ostream os(text);
  if (has_args) {
    os << "struct " << args << " {";
    if (t.loop) os << " long long __tucana_start, __tucana_step;";
    for (const TaskCapture& c : t.captures) {
      QualType type = c.var->getType().getNonReferenceType();
      Qualifiers quals;
      QualType field = c.shared ? ctx_.getPointerType(type) : ctx_.getUnqualifiedArrayType(type, quals);
      os << " " << declare(field, c.var->getName().str()) << ";";
    }
    os << " };\n";
  }
  std::string signature = t.loop ? "static void " + fn + "(long long __tucana_lo, long long __tucana_hi, void *__tucana_p)"
                                  : "static void " + fn + "(void *__tucana_p)";
  os.flush();
  const std::size_t struct_length = text.size();  // the arguments' structure comes first
  os << signature << " {\n";
  if (has_args)
    os << "  struct " << args << " *__tucana_a = (struct " << args << " *)__tucana_p;\n";
  else
    os << "  (void)__tucana_p;\n";
  for (const TaskCapture& c : t.captures) {
    std::string name = c.var->getName().str();
    QualType type = c.var->getType().getNonReferenceType();
    if (cxx) {  // references: the captures keep their names
      os << "  " << declare(ctx_.getLValueReferenceType(type), name) << " = " << (c.shared ? "*" : "") << "__tucana_a->"
         << name << ";\n";
    } else if (c.shared) {
      continue;  // rewritten at each use
    } else if (type->isArrayType()) {
      Qualifiers quals;
      os << "  " << declare(ctx_.getUnqualifiedArrayType(type, quals), name) << "; __builtin_memcpy(" << name
         << ", __tucana_a->" << name << ", sizeof " << name << ");\n";
    } else {
      os << "  " << declare(type, name) << " = __tucana_a->" << name << ";\n";
    }
  }
  if (t.loop) {
    Qualifiers quals;
    QualType it = ctx_.getUnqualifiedArrayType(h.var->getType(), quals);
    os << "  for (long long __tucana_k = __tucana_lo; __tucana_k < __tucana_hi; ++__tucana_k) {\n";
    os << "    " << declare(it, h.var->getName().str()) << " = (" << declare(it, "")
       << ")((unsigned long long)__tucana_a->__tucana_start + (unsigned long long)__tucana_k * "
          "(unsigned long long)__tucana_a->__tucana_step); (void)" << h.var->getName()
       << ";\n";
  }
  os << line_directive(mb) << "\n" << indent_to(mb) << body << "\n";
  if (t.loop) os << "  }\n";
  os << "}\n";
  os.flush();

  // Before the enclosing top-level declaration, on lines of its own; then
  // back to that declaration's line. After a function: the structure and
  // the declaration before it, the definition after it.
  int rank = kOutlinedFunction - t.depth;  // an inner task's function first: the outer one spawns it
  if (t.define_at) {
    place_before(t.insert_at, rank, text.substr(0, struct_length) + signature + ";\n");
    place_after(t.define_at, rank, text.substr(struct_length));
  } else {
    place_before(t.insert_at, rank, text);
  }
  return true;
}

void Emitter::place_before(unsigned at, int rank, const std::string& text) {
  unsigned line_start = at;
  while (line_start > 0 && buffer_[line_start - 1] != '\n') --line_start;
  bool alone = buffer_.substr(line_start, at - line_start).trim().empty();
  std::string placed = text + line_directive(at) + "\n";
  if (alone)
    edits_.insert(line_start, rank, placed);
  else
    edits_.insert(at, rank, "\n" + placed + indent_to(at));
}

// After the text ending at `at` (a function's '}'): on the lines after
// that line when the rest of it is blank, else right after `at`; then back
// to the line and column of what follows.
void Emitter::place_after(unsigned at, int rank, const std::string& text) {
  std::size_t eol = buffer_.find('\n', at);
  if (eol == llvm::StringRef::npos) {
    edits_.insert(at, rank, "\n" + text);
    return;
  }
  if (buffer_.substr(at, eol - at).trim().empty()) {
    unsigned next = static_cast<unsigned>(eol + 1);
    edits_.insert(next, rank, text + line_directive(next) + "\n");
  } else {
    edits_.insert(at, rank, "\n" + text + line_directive(at) + "\n" + indent_to(at));
  }
}

}  // namespace

void emit_tasks(ASTContext& ctx, const TaskPlan& plan, const PrivatizationPlan& privatization,
                const std::string& display_name, EditSet& out) {
  if (plan.empty()) return;
  Emitter e(ctx, plan, privatization, display_name, out);
  if (!e.run())
    report(ctx.getDiagnostics(), ctx.getSourceManager().getLocForStartOfFile(ctx.getSourceManager().getMainFileID()),
           Diag::ConflictingEdits)
        << "a task's statement holds an edit that crosses its ends";
}

}  // namespace tucana::translate
