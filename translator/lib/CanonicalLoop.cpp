// The canonical form of a counted for loop (CanonicalLoop.h): the header's
// parts, and the trip count as C computes it.
#include "tucana/translate/CanonicalLoop.h"

#include <cctype>

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

namespace tucana::translate {

using namespace clang;

namespace {
const VarDecl* var_of(const Expr* e) {
  if (const auto* ref = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}
}  // namespace

bool is_loop(const Stmt* s) {
  return isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s);
}

const Stmt* loop_body(const Stmt* s) {
  if (const auto* f = dyn_cast<ForStmt>(s)) return f->getBody();
  if (const auto* w = dyn_cast<WhileStmt>(s)) return w->getBody();
  if (const auto* d = dyn_cast<DoStmt>(s)) return d->getBody();
  if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) return r->getBody();
  return nullptr;
}

bool parse_canonical_loop(const ForStmt* f, const ASTContext& ctx, CanonicalLoop& out, std::string& why,
                          SourceLocation& where) {
  out = CanonicalLoop();
  out.body = f->getBody();
  auto fail = [&](SourceLocation loc, const std::string& text) {
    why = text, where = loc;
    return false;
  };
  // for (T i = START; ...) or for (i = START; ...)
  const Expr* start = nullptr;
  if (const auto* ds = dyn_cast_or_null<DeclStmt>(f->getInit()); ds && ds->isSingleDecl()) {
    if (const auto* v = dyn_cast<VarDecl>(ds->getSingleDecl()); v && v->hasInit()) out.var = v, start = v->getInit();
  } else if (const auto* as = dyn_cast_or_null<BinaryOperator>(f->getInit()); as && as->getOpcode() == BO_Assign) {
    if (const VarDecl* v = var_of(as->getLHS()); v && v->hasLocalStorage()) out.var = v, start = as->getRHS();
  }
  if (!out.var)
    return fail(f->getInit() ? f->getInit()->getBeginLoc() : f->getLParenLoc(),
               "the initialization must be 'T i = START' or 'i = START' (one loop variable)");
  if (!out.var->getType()->isIntegerType() || out.var->getType()->isEnumeralType() || out.var->getType()->isBooleanType())
    return fail(out.var->getLocation(), "the loop variable '" + out.var->getName().str() + "' must have an integer type");
  std::string i = out.var->getName().str();
  // i OP END (or END OP i)
  const auto* cond = dyn_cast_or_null<BinaryOperator>(f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
  const Expr* end = nullptr;
  if (cond && (cond->isRelationalOp() || cond->getOpcode() == BO_NE)) {
    QualType compared = cond->getLHS()->getType().getCanonicalType().getUnqualifiedType();
    if (compared->isUnsignedIntegerType()) out.unsigned_compare = compared.getAsString(ctx.getPrintingPolicy());
    std::string op = BinaryOperator::getOpcodeStr(cond->getOpcode()).str();
    if (var_of(cond->getLHS()) == out.var) {
      out.op = op, end = cond->getRHS();
    } else if (var_of(cond->getRHS()) == out.var) {
      end = cond->getLHS();
      out.op = op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : op;
    }
  }
  if (!end)
    return fail(f->getCond() ? f->getCond()->getBeginLoc() : f->getLParenLoc(),
               "the condition must compare '" + i + "' with <, <=, >, >= or != to a bound");
  // i++, ++i, i--, --i, i += S, i -= S, i = i + S, i = S + i, i = i - S
  const Expr* inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  const Expr* step = nullptr;
  bool ok = false;
  if (const auto* u = dyn_cast_or_null<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && var_of(u->getSubExpr()) == out.var) {
    ok = true, out.direction = u->isIncrementOp() ? 1 : -1;
  } else if (const auto* c = dyn_cast_or_null<CompoundAssignOperator>(inc);
             c && (c->getOpcode() == BO_AddAssign || c->getOpcode() == BO_SubAssign) && var_of(c->getLHS()) == out.var) {
    ok = true, step = c->getRHS(), out.direction = c->getOpcode() == BO_AddAssign ? 1 : -1;
  } else if (const auto* as = dyn_cast_or_null<BinaryOperator>(inc); as && as->getOpcode() == BO_Assign && var_of(as->getLHS()) == out.var) {
    if (const auto* sum = dyn_cast<BinaryOperator>(as->getRHS()->IgnoreParenImpCasts())) {
      if (sum->getOpcode() == BO_Add && var_of(sum->getLHS()) == out.var) ok = true, step = sum->getRHS();
      else if (sum->getOpcode() == BO_Add && var_of(sum->getRHS()) == out.var) ok = true, step = sum->getLHS();
      else if (sum->getOpcode() == BO_Sub && var_of(sum->getLHS()) == out.var) ok = true, step = sum->getRHS(), out.direction = -1;
    }
  }
  if (!ok)
    return fail(f->getInc() ? f->getInc()->getBeginLoc() : f->getLParenLoc(),
               "the increment must be " + i + "++, ++" + i + ", " + i + "--, --" + i + ", " + i + " += S, " + i +
                   " -= S or " + i + " = " + i + " + S");
  if (out.op == "!=" && step)
    return fail(f->getInc()->getBeginLoc(), "with '!=' the increment must be " + i + "++, ++" + i + ", " + i + "-- or --" + i);
  if (!step && ((out.direction > 0 && (out.op == ">" || out.op == ">=")) || (out.direction < 0 && (out.op == "<" || out.op == "<="))))
    return fail(f->getInc()->getBeginLoc(), std::string("the increment counts ") + (out.direction > 0 ? "up" : "down") +
                                               " but the condition '" + i + " " + out.op + " ...' expects it to count " +
                                               (out.direction > 0 ? "down" : "up"));
  out.start = start, out.end = end, out.step = step;
  return true;
}

std::string trip_count_expression(const CanonicalLoop& loop, const std::string& start, const std::string& end,
                                  const std::string& step) {
  // A name stays as it is (the taskloop's generated code reads as before).
  auto operand = [](const std::string& x) {
    for (char c : x)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return "(" + x + ")";
    return x;
  };
  const std::string s = operand(start), e = operand(end), st = operand(step);
  std::string n;
  if (!loop.unsigned_compare.empty()) {
    // In the compared type T, as the loop's own condition: START and END
    // converted to T, the distance taken in T (it wraps as C's does).
    const std::string T = "(" + loop.unsigned_compare + ")";
    std::string s0 = T + s, e0 = T + e;
    std::string up = T + st, down = T + "(-" + st + ")";
    if (loop.op == "<")
      n = st + " > 0 && " + s0 + " < " + e0 + " ? (long long)((" + T + "(" + e0 + " - " + s0 + ") + " + up +
          " - 1) / " + up + ") : 0";
    else if (loop.op == "<=")
      n = st + " > 0 && " + s0 + " <= " + e0 + " ? (long long)(" + T + "(" + e0 + " - " + s0 + ") / " + up +
          ") + 1 : 0";
    else if (loop.op == ">")
      n = st + " < 0 && " + s0 + " > " + e0 + " ? (long long)((" + T + "(" + s0 + " - " + e0 + ") + " + down +
          " - 1) / " + down + ") : 0";
    else if (loop.op == ">=")
      n = st + " < 0 && " + s0 + " >= " + e0 + " ? (long long)(" + T + "(" + s0 + " - " + e0 + ") / " +
          down + ") + 1 : 0";
    else  // != with a step of one
      n = "(long long)(" + st + " > 0 ? " + T + "(" + e0 + " - " + s0 + ") : " + T + "(" + s0 + " - " + e0 + "))";
  } else if (loop.op == "<")
    n = st + " > 0 && " + s + " < " + e + " ? (" + e + " - " + s + " + " + st + " - 1) / " + st + " : 0";
  else if (loop.op == "<=")
    n = st + " > 0 && " + s + " <= " + e + " ? (" + e + " - " + s + ") / " + st + " + 1 : 0";
  else if (loop.op == ">")
    n = st + " < 0 && " + s + " > " + e + " ? (" + s + " - " + e + " - " + st + " - 1) / -" + st + " : 0";
  else if (loop.op == ">=")
    n = st + " < 0 && " + s + " >= " + e + " ? (" + s + " - " + e + ") / -" + st + " + 1 : 0";
  else  // != with a step of one
    n = st + " > 0 ? (" + s + " < " + e + " ? " + e + " - " + s + " : 0) : (" + s + " > " + e + " ? " + s + " - " + e + " : 0)";
  return n;
}

}  // namespace tucana::translate
