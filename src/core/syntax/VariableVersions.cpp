// Variable versions (Numba's SSA renaming on the syntax tree): one walk in execution order keeps,
// for each local name, the assignment group that reaches each point; joins of control flow
// merge groups (union-find); then every name is renamed after its group.
#include "syntax/VariableVersions.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace taipan {
namespace {

/// What reaches one point of the function: for each local name, the group of assignments
/// (a union-find node) whose value it holds; names with no entry hold nothing yet.
struct ReachingState {
  bool reachable = true;
  std::map<std::string, int> groups;
};

/// The names a block assigns, nested blocks included (not comprehensions: their names are the
/// comprehension's own hidden variables).
void collectAssigned(const std::vector<Stmt *> &block, std::set<std::string> &names);

void collectTargetNames(const Expr *target, std::set<std::string> &names) {
  if (target->kind == ExprKind::Name)
    names.insert(target->name);
  else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
    for (const Expr *element : target->operands)
      collectTargetNames(element, names);
}

void collectAssigned(const std::vector<Stmt *> &block, std::set<std::string> &names) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Assign || stmt->kind == StmtKind::AugAssign ||
        stmt->kind == StmtKind::For || stmt->kind == StmtKind::Yield)
      for (const Expr *target : stmt->targets)
        collectTargetNames(target, names);
    collectAssigned(stmt->body, names);
    collectAssigned(stmt->orelse, names);
    for (const ExceptHandler &handler : stmt->handlers)
      collectAssigned(handler.body, names);
    collectAssigned(stmt->finalbody, names);
  }
}

/// `for ... in prange(...)` (or `numba.prange`): its iterations may run at once, and the
/// planning of its variables (typing/ParallelLoops) sorts them by name, so no name is split
/// inside it.
bool iteratesPrange(const Stmt *loop) {
  const Expr *iterable = loop->value;
  if (!iterable || iterable->kind != ExprKind::Call)
    return false;
  const Expr *callee = iterable->callee();
  return (callee->kind == ExprKind::Name || callee->kind == ExprKind::Attribute) &&
         callee->name == "prange";
}

class Versioner {
public:
  explicit Versioner(FunctionSource &source) : source(source) {}

  void run() {
    for (const Parameter &parameter : source.parameters)
      versioned.insert(parameter.name);
    collectAssigned(source.body, versioned);
    excludeNames(source.body);
    for (auto name = versioned.begin(); name != versioned.end();)
      name = name->empty() || (*name)[0] == '$' ? versioned.erase(name) : std::next(name);
    if (versioned.empty())
      return;
    ReachingState entry;
    for (const Parameter &parameter : source.parameters)
      if (versioned.count(parameter.name))
        entry.groups[parameter.name] = newGroup(parameter.name);
    walkBlock(source.body, entry);
    rename();
  }

private:
  FunctionSource &source;
  /// The names split into versions: parameters and assigned names, not hidden ones (`$...`)
  /// nor `except ... as e` names.
  std::set<std::string> versioned;
  std::vector<int> parents;           ///< union-find over groups
  std::vector<std::string> groupName; ///< the Python name of each group
  /// Every Name expression of a versioned name, with the group it reads or assigns.
  std::vector<std::pair<Expr *, int>> uses;
  /// An assignment that ended a group: release `ended` after `after` in `block`, unless a join
  /// merged the two groups after all.
  struct Ending {
    std::vector<Stmt *> *block;
    Stmt *after;
    int assigned;
    int ended;
  };
  std::vector<Ending> endings;
  /// Inside a try statement or a prange loop: assignments continue the reaching group.
  int keepGroups = 0;
  struct LoopExits {
    std::vector<ReachingState> breaks, continues;
  };
  std::vector<LoopExits *> loops;

  void excludeNames(const std::vector<Stmt *> &block) {
    for (const Stmt *stmt : block) {
      for (const ExceptHandler &handler : stmt->handlers) {
        if (!handler.name.empty())
          versioned.erase(handler.name);
        excludeNames(handler.body);
      }
      excludeNames(stmt->body);
      excludeNames(stmt->orelse);
      excludeNames(stmt->finalbody);
    }
  }

  int newGroup(const std::string &name) {
    parents.push_back(static_cast<int>(parents.size()));
    groupName.push_back(name);
    return parents.back();
  }

  int find(int group) {
    while (parents[group] != group)
      group = parents[group] = parents[parents[group]];
    return group;
  }

  /// Merges two groups; the older one stays the root, so a parameter's group stays first.
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parents[std::max(a, b)] = std::min(a, b);
  }

  /// The state where control flow from `states` joins: a name's groups reaching it from
  /// different predecessors become one (Numba's phi node).
  ReachingState join(const std::vector<ReachingState> &states) {
    ReachingState result;
    result.reachable = false;
    for (const ReachingState &state : states) {
      if (!state.reachable)
        continue;
      if (!result.reachable) {
        result = state;
        continue;
      }
      for (const auto &[name, group] : state.groups) {
        auto [slot, inserted] = result.groups.emplace(name, group);
        if (!inserted)
          unite(slot->second, group);
      }
    }
    if (!result.reachable) // nothing reaches: keep the names (dead code is renamed too)
      for (const ReachingState &state : states)
        for (const auto &[name, group] : state.groups)
          result.groups.emplace(name, group);
    return result;
  }

  void read(Expr *expr, ReachingState &state) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name && versioned.count(expr->name)) {
      auto found = state.groups.find(expr->name);
      if (found != state.groups.end()) // otherwise read before any assignment: keeps its name
        uses.push_back({expr, found->second});
    }
    for (Expr *operand : expr->operands)
      read(operand, state);
    if (expr->kind == ExprKind::Comprehension) { // its loop reads; it assigns hidden names only
      ReachingState inner = state;
      walkBlock(expr->statements, inner);
    }
  }

  /// An assignment to `target`: a new group when `split` (a plain assignment outside try
  /// statements and prange loops), else the group that reaches it.
  void assign(Expr *target, ReachingState &state, bool split, std::vector<Stmt *> *block,
              Stmt *stmt) {
    if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
      for (Expr *element : target->operands)
        assign(element, state, split, block, stmt);
      return;
    }
    if (target->kind != ExprKind::Name) { // a store into an item or attribute reads its base
      for (Expr *operand : target->operands)
        read(operand, state);
      return;
    }
    if (!versioned.count(target->name))
      return;
    auto reaching = state.groups.find(target->name);
    int group;
    if (split && !keepGroups) {
      group = newGroup(target->name);
      if (reaching != state.groups.end() && block)
        endings.push_back({block, stmt, group, reaching->second});
    } else {
      group = reaching != state.groups.end() ? reaching->second : newGroup(target->name);
    }
    state.groups[target->name] = group;
    uses.push_back({target, group});
  }

  void walkBlock(std::vector<Stmt *> &block, ReachingState &state) {
    for (Stmt *stmt : block)
      walkStatement(stmt, block, state);
  }

  void walkStatement(Stmt *stmt, std::vector<Stmt *> &block, ReachingState &state) {
    switch (stmt->kind) {
    case StmtKind::Assign:
      read(stmt->value, state);
      for (Expr *target : stmt->targets)
        assign(target, state, true, &block, stmt);
      return;
    case StmtKind::AugAssign:
      read(stmt->targets[0], state);
      read(stmt->value, state);
      if (stmt->targets[0]->kind == ExprKind::Name)
        assign(stmt->targets[0], state, false, &block, stmt);
      return;
    case StmtKind::Yield:
      read(stmt->value, state);
      for (Expr *target : stmt->targets)
        assign(target, state, false, &block, stmt);
      return;
    case StmtKind::ExprStmt:
      read(stmt->value, state);
      return;
    case StmtKind::Return:
    case StmtKind::Raise:
      read(stmt->value, state);
      state.reachable = false;
      return;
    case StmtKind::Assert:
      read(stmt->test, state);
      read(stmt->message, state);
      return;
    case StmtKind::If: {
      read(stmt->test, state);
      ReachingState otherwise = state;
      walkBlock(stmt->body, state);
      walkBlock(stmt->orelse, otherwise);
      state = join({state, otherwise});
      return;
    }
    case StmtKind::While:
    case StmtKind::For:
      walkLoop(stmt, state);
      return;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (!loops.empty())
        (stmt->kind == StmtKind::Break ? loops.back()->breaks : loops.back()->continues)
            .push_back(state);
      state.reachable = false;
      return;
    case StmtKind::Try:
      walkTry(stmt, state);
      return;
    case StmtKind::Pass:
      return;
    }
  }

  /// A loop's head joins the state before the loop with the end of every iteration: each name
  /// the loop assigns gets a head group (the phi node) that both flow into.
  void walkLoop(Stmt *loop, ReachingState &state) {
    bool isFor = loop->kind == StmtKind::For;
    if (isFor)
      read(loop->value, state); // the iterable is evaluated once, before the loop
    std::set<std::string> assigned;
    collectAssigned(loop->body, assigned);
    if (isFor)
      collectTargetNames(loop->targets[0], assigned);
    std::map<std::string, int> heads;
    ReachingState head = state;
    for (const std::string &name : assigned) {
      if (!versioned.count(name))
        continue;
      int group = newGroup(name);
      auto before = state.groups.find(name);
      if (before != state.groups.end())
        unite(group, before->second);
      heads[name] = group;
      head.groups[name] = group;
    }
    if (!isFor)
      read(loop->test, head);
    bool parallel = isFor && iteratesPrange(loop);
    keepGroups += parallel;
    LoopExits exits;
    loops.push_back(&exits);
    ReachingState body = head;
    if (isFor)
      assign(loop->targets[0], body, false, nullptr, loop);
    walkBlock(loop->body, body);
    loops.pop_back();
    keepGroups -= parallel;
    exits.continues.push_back(body);
    for (const ReachingState &end : exits.continues) {
      if (!end.reachable)
        continue;
      for (const auto &[name, group] : heads) {
        auto found = end.groups.find(name);
        if (found != end.groups.end())
          unite(group, found->second);
      }
    }
    ReachingState after = head; // the loop ends at its head (the test fails, the items end)
    walkBlock(loop->orelse, after);
    exits.breaks.push_back(after);
    state = join(exits.breaks);
  }

  /// Any statement of a try body may raise into a handler, and a finally block runs after
  /// any of them: every name the statement assigns is one group throughout it, joined with
  /// the group that reaches the statement (as Numba keeps one variable there).
  void walkTry(Stmt *stmt, ReachingState &state) {
    std::set<std::string> assigned;
    collectAssigned({stmt}, assigned);
    for (const std::string &name : assigned)
      if (versioned.count(name) && !state.groups.count(name))
        state.groups[name] = newGroup(name);
    ++keepGroups;
    ReachingState entry = state;
    walkBlock(stmt->body, state);
    walkBlock(stmt->orelse, state);
    std::vector<ReachingState> ends{state};
    for (ExceptHandler &handler : stmt->handlers) {
      ReachingState caught = entry;
      read(handler.type, caught);
      walkBlock(handler.body, caught);
      ends.push_back(caught);
    }
    state = join(ends);
    if (!stmt->finalbody.empty()) {
      bool reachable = state.reachable;
      state.reachable = true; // the finally block also runs when an exception leaves
      walkBlock(stmt->finalbody, state);
      state.reachable = state.reachable && reachable;
    }
    --keepGroups;
  }

  /// Names each group after its name (the first group) or a version of it (`x.1`, ...), renames
  /// every use and adds the releases of ended groups.
  void rename() {
    std::map<int, std::string> names;
    std::map<std::string, int> versions;
    for (int group = 0; group < static_cast<int>(parents.size()); ++group) {
      int root = find(group);
      if (names.count(root))
        continue;
      int version = versions[groupName[root]]++;
      names[root] =
          version == 0 ? groupName[root] : groupName[root] + "." + std::to_string(version);
    }
    for (auto &[expr, group] : uses)
      expr->name = names[find(group)];
    std::set<std::pair<Stmt *, int>> released;
    for (const Ending &ending : endings) {
      int ended = find(ending.ended);
      if (find(ending.assigned) == ended || !released.insert({ending.after, ended}).second)
        continue;
      Stmt *release = source.newStmt(StmtKind::Pass, ending.after->location);
      Expr *target = source.newExpr(ExprKind::Name, ending.after->location);
      target->name = names[ended];
      release->targets.push_back(target);
      auto position = std::find(ending.block->begin(), ending.block->end(), ending.after);
      ending.block->insert(position + 1, release);
    }
  }
};

} // namespace

void assignVariableVersions(FunctionSource &source) { Versioner(source).run(); }

std::string pythonVariableName(const std::string &name) {
  std::string spelled = name.substr(0, name.find('@'));
  if (spelled.empty() || spelled[0] == '$')
    return spelled;
  size_t dot = spelled.find('.');
  return dot == std::string::npos ? spelled : spelled.substr(0, dot);
}

} // namespace taipan
