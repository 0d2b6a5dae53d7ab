// Variable versions (Numba's SSA renaming on the syntax tree): one walk in execution order keeps,
// for each local name, the assignment group that reaches each point; joins of control flow
// merge groups (union-find); then every name is renamed after its group. The same walk finds the
// reads some path reaches without assigning the name, which get a hidden flag and a check.
#include "syntax/VariableVersions.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace taipan {
namespace {

using NameSet = std::set<std::string>;

/// What reaches one point of the function: for each local name, the groups of assignments
/// (union-find nodes) whose value it may hold. Groups that meet at a join where the name is live
/// are merged into one (a phi node); where it is not live (every path assigns it before reading
/// it), they stay apart, and only an assignment's release needs to know them all.
struct ReachingState {
  bool reachable = true;
  std::map<std::string, std::vector<int>> groups;
  /// The names some path reaches this point without assigning (CPython would raise
  /// UnboundLocalError reading them): only assignments remove a name (there is no `del`), and
  /// joins take the union.
  NameSet unbound;
};

/// Every name `expr` reads (comprehensions' loops included).
void collectReads(const Expr *expr, NameSet &names) {
  if (!expr)
    return;
  if (expr->kind == ExprKind::Name)
    names.insert(expr->name);
  for (const Expr *operand : expr->operands)
    collectReads(operand, names);
  for (const Stmt *stmt : expr->statements) {
    for (const Expr *target : stmt->targets)
      collectReads(target, names);
    collectReads(stmt->value, names);
    collectReads(stmt->test, names);
  }
}

/// The names an assignment target reads: indices and bases of stores, not the names it binds.
void collectTargetReads(const Expr *target, NameSet &names) {
  if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
    for (const Expr *element : target->operands)
      collectTargetReads(element, names);
  } else if (target->kind != ExprKind::Name) {
    collectReads(target, names);
  }
}

/// Every name a block reads anywhere, nested blocks included.
void collectAllReads(const std::vector<Stmt *> &block, NameSet &names) {
  for (const Stmt *stmt : block) {
    for (const Expr *target : stmt->targets)
      collectReads(target, names);
    collectReads(stmt->value, names);
    collectReads(stmt->test, names);
    collectReads(stmt->message, names);
    collectAllReads(stmt->body, names);
    collectAllReads(stmt->orelse, names);
    for (const ExceptHandler &handler : stmt->handlers) {
      collectReads(handler.type, names);
      collectAllReads(handler.body, names);
    }
    collectAllReads(stmt->finalbody, names);
  }
}

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

/// Which names are live (may be read before they are assigned again) after each if, loop and
/// try statement and at each loop's head: a backward pass over the tree. Try statements are
/// taken as reading everything they read, with no assignment that kills (any statement may
/// raise into a handler).
class Liveness {
public:
  /// Names live after `stmt`, or null where not computed (inside comprehensions).
  const NameSet *after(const Stmt *stmt) const {
    auto found = liveAfter.find(stmt);
    return found == liveAfter.end() ? nullptr : &found->second;
  }
  /// Names live at the head of loop `stmt` (before its test or its next item).
  const NameSet *atHead(const Stmt *stmt) const {
    auto found = liveAtHead.find(stmt);
    return found == liveAtHead.end() ? nullptr : &found->second;
  }

  NameSet block(const std::vector<Stmt *> &statements, NameSet live) {
    for (auto stmt = statements.rbegin(); stmt != statements.rend(); ++stmt)
      live = statement(*stmt, std::move(live));
    return live;
  }

private:
  std::map<const Stmt *, NameSet> liveAfter, liveAtHead;
  struct LoopTargets {
    const NameSet *onBreak;
    const NameSet *onContinue;
  };
  std::vector<LoopTargets> loops;

  static void kill(const Expr *target, NameSet &live) {
    if (target->kind == ExprKind::Name)
      live.erase(target->name);
    else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
      for (const Expr *element : target->operands)
        kill(element, live);
  }

  NameSet statement(const Stmt *stmt, NameSet live) {
    switch (stmt->kind) {
    case StmtKind::Assign:
    case StmtKind::Yield:
      for (const Expr *target : stmt->targets)
        kill(target, live);
      for (const Expr *target : stmt->targets)
        collectTargetReads(target, live);
      collectReads(stmt->value, live);
      return live;
    case StmtKind::AugAssign:
      collectReads(stmt->targets[0], live);
      collectReads(stmt->value, live);
      return live;
    case StmtKind::ExprStmt:
    case StmtKind::Assert:
    case StmtKind::Pass:
      collectReads(stmt->value, live);
      collectReads(stmt->test, live);
      collectReads(stmt->message, live);
      return live;
    case StmtKind::Return:
    case StmtKind::Raise:
      live.clear();
      collectReads(stmt->value, live);
      return live;
    case StmtKind::Break:
      return loops.empty() ? NameSet() : *loops.back().onBreak;
    case StmtKind::Continue:
      return loops.empty() ? NameSet() : *loops.back().onContinue;
    case StmtKind::If: {
      liveAfter[stmt] = live;
      NameSet result = block(stmt->body, live);
      NameSet otherwise = block(stmt->orelse, live);
      result.insert(otherwise.begin(), otherwise.end());
      collectReads(stmt->test, result);
      return result;
    }
    case StmtKind::While:
    case StmtKind::For:
      return loop(stmt, std::move(live));
    case StmtKind::Try: {
      liveAfter[stmt] = live;
      NameSet everything = live;
      collectAllReads({const_cast<Stmt *>(stmt)}, everything);
      block(stmt->body, everything);
      block(stmt->orelse, everything);
      for (const ExceptHandler &handler : stmt->handlers)
        block(handler.body, everything);
      block(stmt->finalbody, everything);
      return everything;
    }
    }
    return live;
  }

  /// The head's live names, to a fixpoint: what the exit (the else block) needs and what the
  /// body needs at its start (less a for loop's target, assigned first).
  NameSet loop(const Stmt *stmt, NameSet after) {
    liveAfter[stmt] = after;
    NameSet exit = block(stmt->orelse, after);
    NameSet head = exit;
    if (stmt->kind == StmtKind::While)
      collectReads(stmt->test, head);
    for (int round = 0; round < 64; ++round) {
      loops.push_back({&after, &head});
      NameSet body = block(stmt->body, head);
      loops.pop_back();
      if (stmt->kind == StmtKind::For)
        kill(stmt->targets[0], body);
      size_t before = head.size();
      head.insert(body.begin(), body.end());
      if (head.size() == before)
        break;
    }
    liveAtHead[stmt] = head;
    NameSet result = head;
    if (stmt->kind == StmtKind::For)
      collectReads(stmt->value, result);
    return result;
  }
};

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
    liveness.block(source.body, {});
    ReachingState entry;
    entry.unbound = versioned;
    for (const Parameter &parameter : source.parameters) {
      entry.unbound.erase(parameter.name);
      if (versioned.count(parameter.name))
        entry.groups[parameter.name] = {newGroup(parameter.name)};
    }
    walkBlock(source.body, entry);
    rename();
    addBoundFlags();
  }

private:
  FunctionSource &source;
  Liveness liveness;
  /// The names split into versions: parameters and assigned names, not hidden ones (`$...`)
  /// nor `except ... as e` names.
  NameSet versioned;
  std::vector<int> parents;           ///< union-find over groups
  std::vector<std::string> groupName; ///< the Python name of each group
  /// Every Name expression of a versioned name, with the group it reads or assigns.
  std::vector<std::pair<Expr *, int>> uses;
  /// An assignment that ended a group: release `ended` after `after` in `block` (at its start
  /// when `after` is null: a for loop's target), unless the two groups were merged after all.
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
  /// Groups of augmented assignments that no assignment reaches (`c += 1` on a path where `c`
  /// was never assigned): the read raises, and the group joins the name's first group (the one
  /// keeping the name, as other such reads do) so that it has that type.
  std::vector<int> unreachedUpdates;
  /// Where each name gets its value: after statement `after` of `block` (at the block's start
  /// when `after` is null: a for loop's target), for the flags of names read unassigned.
  struct Binding {
    std::vector<Stmt *> *block;
    Stmt *after;
  };
  std::map<std::string, std::vector<Binding>> bindings;
  /// The Python names (versioned ones, before renaming) some read may find unassigned.
  NameSet flagged;

  /// The hidden variable saying whether `name` holds a value.
  static std::string boundFlagName(const std::string &name) { return "$bound." + name; }

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

  /// The one group `name` holds in `state`, merging the groups that reach it (a read where
  /// liveness saw none live is merged conservatively); -1 when nothing reaches.
  int single(ReachingState &state, const std::string &name) {
    auto found = state.groups.find(name);
    if (found == state.groups.end() || found->second.empty())
      return -1;
    std::vector<int> &groups = found->second;
    for (int group : groups)
      unite(groups.front(), group);
    groups = {find(groups.front())};
    return groups.front();
  }

  /// Adds `more` to the groups of `into`, without duplicates.
  void addGroups(std::vector<int> &into, const std::vector<int> &more) {
    for (int group : more) {
      bool known = false;
      for (int present : into)
        known = known || find(present) == find(group);
      if (!known)
        into.push_back(group);
    }
  }

  /// The state where control flow from `states` joins. A name live after the join (`live`;
  /// null: every name) has its groups merged into one (Numba's phi node); others keep them
  /// apart, since no read sees them before an assignment.
  ReachingState join(const std::vector<ReachingState> &states, const NameSet *live) {
    ReachingState result;
    result.reachable = false;
    for (const ReachingState &state : states)
      result.reachable = result.reachable || state.reachable;
    for (const ReachingState &state : states) {
      if (result.reachable && !state.reachable)
        continue; // dead paths bring nothing (dead code is renamed with what they have)
      for (const auto &[name, groups] : state.groups)
        addGroups(result.groups[name], groups);
      result.unbound.insert(state.unbound.begin(), state.unbound.end());
    }
    for (auto &[name, groups] : result.groups)
      if (groups.size() > 1 && (!live || live->count(name)))
        single(result, name);
    return result;
  }

  void read(Expr *expr, ReachingState &state) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name && versioned.count(expr->name)) {
      if (state.reachable && state.unbound.count(expr->name)) {
        expr->boundFlag = boundFlagName(expr->name);
        flagged.insert(expr->name);
        source.uninitializedReads.push_back({expr->name, expr->location});
      }
      int group = single(state, expr->name);
      if (group >= 0) // otherwise read before any assignment: keeps its name
        uses.push_back({expr, group});
    }
    for (Expr *operand : expr->operands)
      read(operand, state);
    if (expr->kind == ExprKind::Comprehension) { // its loop reads; it assigns hidden names only
      ReachingState inner = state;
      walkBlock(expr->statements, inner);
    }
  }

  /// An assignment to `target`: a new group when `split` (a plain assignment or a loop target,
  /// outside try statements and prange loops), else the group that reaches it.
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
    int group;
    if (split && !keepGroups) {
      group = newGroup(target->name);
      auto reaching = state.groups.find(target->name);
      if (reaching != state.groups.end() && block)
        for (int ended : reaching->second)
          endings.push_back({block, stmt, group, ended});
    } else {
      group = single(state, target->name);
      if (group < 0) {
        group = newGroup(target->name);
        if (stmt && stmt->kind == StmtKind::AugAssign)
          unreachedUpdates.push_back(group);
      }
    }
    state.groups[target->name] = {group};
    state.unbound.erase(target->name);
    uses.push_back({target, group});
    // An augmented assignment binds nothing new: its read raised where the name was unbound.
    if (block && !(stmt && stmt->kind == StmtKind::AugAssign))
      bindings[target->name].push_back({block, stmt});
  }

  /// For `x += y` that may start a version of `x` (a group of it reaches, outside try
  /// statements and prange loops): the read of the version before it, a Name of its own in
  /// `stmt->test` (augmentedRead); null where the target both reads and writes one version.
  Expr *separateRead(Stmt *stmt, ReachingState &state) {
    Expr *target = stmt->targets[0];
    if (target->kind != ExprKind::Name || !versioned.count(target->name) || keepGroups)
      return nullptr;
    auto reaching = state.groups.find(target->name);
    if (reaching == state.groups.end() || reaching->second.empty())
      return nullptr; // nothing assigned it: the update joins the first version (unreachedUpdates)
    if (stmt->test)
      return stmt->test;
    Expr *current = source.newExpr(ExprKind::Name, target->location);
    current->name = target->name;
    current->readScope = target->readScope;
    stmt->test = current;
    return current;
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
      if (Expr *current = separateRead(stmt, state)) {
        read(current, state);
        read(stmt->value, state);
        assign(stmt->targets[0], state, true, &block, stmt);
        return;
      }
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
      state = join({state, otherwise}, liveness.after(stmt));
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
  /// the loop assigns that is live at the head gets a head group (the phi node) that both flow
  /// into; the others keep their groups apart.
  void walkLoop(Stmt *loop, ReachingState &state) {
    bool isFor = loop->kind == StmtKind::For;
    if (isFor)
      read(loop->value, state); // the iterable is evaluated once, before the loop
    NameSet assigned;
    collectAssigned(loop->body, assigned);
    if (isFor)
      collectTargetNames(loop->targets[0], assigned);
    const NameSet *liveAtHead = liveness.atHead(loop);
    std::map<std::string, int> heads;
    ReachingState head = state;
    for (const std::string &name : assigned) {
      if (!versioned.count(name) || (liveAtHead && !liveAtHead->count(name)))
        continue;
      int group = newGroup(name);
      if (int before = single(state, name); before >= 0)
        unite(group, before);
      heads[name] = group;
      head.groups[name] = {group};
    }
    if (!isFor)
      read(loop->test, head);
    bool parallel = isFor && iteratesPrange(loop);
    keepGroups += parallel;
    LoopExits exits;
    loops.push_back(&exits);
    ReachingState body = head;
    if (isFor)
      assign(loop->targets[0], body, true, &loop->body, nullptr);
    walkBlock(loop->body, body);
    loops.pop_back();
    keepGroups -= parallel;
    exits.continues.push_back(body);
    ReachingState after = head; // the loop ends at its head (the test fails, the items end)
    for (const ReachingState &end : exits.continues) {
      if (!end.reachable)
        continue;
      for (const auto &[name, groups] : end.groups) {
        if (!assigned.count(name) || !versioned.count(name))
          continue;
        auto phi = heads.find(name);
        if (phi == heads.end()) { // not live at the head: its groups stay apart
          addGroups(after.groups[name], groups);
          continue;
        }
        for (int group : groups)
          unite(phi->second, group);
      }
    }
    walkBlock(loop->orelse, after);
    exits.breaks.push_back(after);
    state = join(exits.breaks, liveness.after(loop));
  }

  /// Any statement of a try body may raise into a handler, and a finally block runs after
  /// any of them: every name the statement assigns is one group throughout it, joined with
  /// the groups that reach the statement (as Numba keeps one variable there).
  void walkTry(Stmt *stmt, ReachingState &state) {
    NameSet assigned;
    collectAssigned({stmt}, assigned);
    for (const std::string &name : assigned)
      if (versioned.count(name) && single(state, name) < 0)
        state.groups[name] = {newGroup(name)};
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
    state = join(ends, nullptr);
    if (!stmt->finalbody.empty()) {
      bool reachable = state.reachable;
      state.reachable = true; // the finally block also runs when an exception leaves
      state.unbound.insert(entry.unbound.begin(), entry.unbound.end()); // from anywhere
      walkBlock(stmt->finalbody, state);
      state.reachable = state.reachable && reachable;
    }
    --keepGroups;
  }

  /// Names each group after its name (the first group) or a version of it (`x.1`, ...), renames
  /// every use and adds the releases of ended groups.
  void rename() {
    std::map<std::string, int> firstGroups;
    for (int group = 0; group < static_cast<int>(parents.size()); ++group)
      firstGroups.emplace(groupName[group], group);
    for (int group : unreachedUpdates)
      unite(firstGroups[groupName[group]], group);
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
    std::set<std::pair<const void *, int>> released; // (statement or loop body, group)
    for (const Ending &ending : endings) {
      int ended = find(ending.ended);
      const void *place = ending.after ? static_cast<const void *>(ending.after) : ending.block;
      if (find(ending.assigned) == ended || !released.insert({place, ended}).second)
        continue;
      SourceLocation where = ending.after
                                 ? ending.after->location
                                 : (ending.block->empty() ? source.definitionLocation
                                                          : ending.block->front()->location);
      Stmt *release = source.newStmt(StmtKind::Pass, where);
      for (int group : {ended, find(ending.assigned)}) {
        Expr *target = source.newExpr(ExprKind::Name, where);
        target->name = names[group];
        release->targets.push_back(target);
      }
      auto position = ending.after
                          ? std::find(ending.block->begin(), ending.block->end(), ending.after) + 1
                          : ending.block->begin();
      ending.block->insert(position, release);
    }
  }

  /// For each name some read may find unassigned: its flag, false at the start and true after
  /// every assignment. Reads every path assigns first get none, so their code is unchanged.
  void addBoundFlags() {
    for (const std::string &name : flagged) {
      std::string flag = boundFlagName(name);
      std::set<std::pair<const void *, const Stmt *>> placed;
      for (const Binding &binding : bindings[name]) {
        if (!placed.insert({binding.block, binding.after}).second)
          continue;
        SourceLocation where = binding.after            ? binding.after->location
                               : binding.block->empty() ? source.definitionLocation
                                                        : binding.block->front()->location;
        auto position =
            binding.after
                ? std::find(binding.block->begin(), binding.block->end(), binding.after) + 1
                : binding.block->begin();
        binding.block->insert(position, flagAssignment(flag, true, where));
      }
      source.body.insert(source.body.begin(),
                         flagAssignment(flag, false, source.definitionLocation));
    }
  }

  Stmt *flagAssignment(const std::string &flag, bool bound, SourceLocation where) {
    Stmt *assignment = source.newStmt(StmtKind::Assign, where);
    Expr *target = source.newExpr(ExprKind::Name, where);
    target->name = flag;
    assignment->targets.push_back(target);
    assignment->value = source.newExpr(ExprKind::Constant, where);
    assignment->value->constant.kind = Constant::Kind::Bool;
    assignment->value->constant.intValue = bound ? 1 : 0;
    return assignment;
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
