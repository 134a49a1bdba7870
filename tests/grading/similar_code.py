"""Learners' code for the similarity tests: twenty independent solutions of exercise 14 (the state
graph), each in a style of its own as learners write them, and a copied pair: ORIGINAL and COPY, the
same code with its variables renamed, its functions reordered and its comments rewritten."""

HEAD = '''def reachable(start, max_nodes=10_000):
    """The directed graph of every state reachable from start: an edge s -> t with the attribute
    move=m for each legal move m of s with s.apply(m) == t. ValueError past max_nodes states."""
'''
OUTCOMES = '''

def outcomes(graph):
    """A Counter of how the hands in graph end: winner seat -> number of final states (None: blocked)."""
'''

INDEPENDENT = [
    # 1: breadth first with a deque and a set of seen states
    HEAD + '''    g = nx.DiGraph()
    seen = {start}
    todo = deque([start])
    g.add_node(start)
    while todo:
        s = todo.popleft()
        for m in s.legal_moves():
            t = s.apply(m)
            if t not in seen:
                seen.add(t)
                if len(seen) > max_nodes:
                    raise ValueError("too many")
                todo.append(t)
            g.add_edge(s, t, move=m)
    return g
''' + OUTCOMES + '''    c = Counter()
    for s in graph.nodes:
        if s.is_over:
            c[s.winner] += 1
    return c
''',
    # 2: recursive depth first
    HEAD + '''    graph = nx.DiGraph()

    def visit(state):
        graph.add_node(state)
        if graph.number_of_nodes() > max_nodes:
            raise ValueError(f"over {max_nodes}")
        for mv in state.legal_moves():
            after = state.apply(mv)
            known = after in graph
            graph.add_edge(state, after, move=mv)
            if not known:
                visit(after)

    visit(start)
    return graph
''' + OUTCOMES + '''    return Counter([node.winner for node in graph.nodes() if node.is_over])
''',
    # 3: an explicit stack, edges collected in a list first
    HEAD + '''    edges = []
    stack = [start]
    visited = set()
    while len(stack) > 0:
        current = stack.pop()
        if current in visited:
            continue
        visited.add(current)
        if len(visited) > max_nodes:
            raise ValueError("the graph is too big")
        for move in current.legal_moves():
            nxt = current.apply(move)
            edges.append((current, nxt, {"move": move}))
            stack.append(nxt)
    result = nx.DiGraph()
    result.add_node(start)
    result.add_edges_from(edges)
    return result
''' + OUTCOMES + '''    counts = {}
    for st in graph:
        if not st.is_over:
            continue
        counts[st.winner] = counts.get(st.winner, 0) + 1
    return Counter(counts)
''',
    # 4: a list walked with an index
    HEAD + '''    states = [start]
    index = {start: 0}
    G = nx.DiGraph()
    G.add_node(start)
    i = 0
    while i < len(states):
        here = states[i]
        i += 1
        for mv in here.legal_moves():
            there = here.apply(mv)
            if there not in index:
                index[there] = len(states)
                states.append(there)
            G.add_edge(here, there, move=mv)
        if len(states) > max_nodes:
            raise ValueError("limit reached")
    return G
''' + OUTCOMES + '''    total = Counter()
    total.update(x.winner for x in graph if x.is_over)
    return total
''',
    # 5: level by level, frontier sets
    HEAD + '''    graph = nx.DiGraph([])
    graph.add_node(start)
    frontier = {start}
    while frontier:
        new_frontier = set()
        for state in frontier:
            for move in state.legal_moves():
                child = state.apply(move)
                if child not in graph:
                    new_frontier.add(child)
                graph.add_edge(state, child, move=move)
        if graph.number_of_nodes() > max_nodes:
            raise ValueError("more states than allowed")
        frontier = new_frontier
    return graph
''' + OUTCOMES + '''    finals = [n for n in graph.nodes if graph.out_degree(n) == 0 and n.is_over]
    return Counter(n.winner for n in finals)
''',
    # 6: an adjacency dict first, the graph built from it
    HEAD + '''    adjacency = {}
    pending = [start]
    while pending:
        node = pending.pop()
        if node in adjacency:
            continue
        adjacency[node] = [(mv, node.apply(mv)) for mv in node.legal_moves()]
        if len(adjacency) > max_nodes:
            raise ValueError("Too many states: " + str(len(adjacency)))
        pending.extend(target for _, target in adjacency[node])
    dg = nx.DiGraph()
    for node, out in adjacency.items():
        dg.add_node(node)
        for mv, target in out:
            dg.add_edge(node, target, move=mv)
    return dg
''' + OUTCOMES + '''    winners = Counter()
    for node in graph.nodes:
        winners[node.winner] += 1 if node.is_over else 0
    return +winners if False else Counter({k: v for k, v in winners.items() if v})
''',
    # 7: pop(0) from a list, a counter of states
    HEAD + '''    q = [start]
    g = nx.DiGraph()
    g.add_node(start)
    n = 1
    while q != []:
        a = q.pop(0)
        moves = a.legal_moves()
        for m in moves:
            b = a.apply(m)
            new = not g.has_node(b)
            g.add_edge(a, b, move=m)
            if new:
                n = n + 1
                if n > max_nodes:
                    raise ValueError
                q.append(b)
    return g
''' + OUTCOMES + '''    result = Counter()
    ends = filter(lambda s: s.is_over, graph.nodes)
    for e in ends:
        result[e.winner] = result[e.winner] + 1
    return result
''',
    # 8: a helper that yields the successors
    HEAD + '''    def successors(state):
        for move in state.legal_moves():
            yield move, state.apply(move)

    out = nx.DiGraph()
    out.add_node(start)
    queue = deque()
    queue.append(start)
    while len(queue):
        src = queue.popleft()
        for move, dst in successors(src):
            if dst not in out.nodes:
                if out.number_of_nodes() == max_nodes:
                    raise ValueError("max_nodes exceeded")
                queue.append(dst)
            out.add_edge(src, dst, move=move)
    return out
''' + OUTCOMES + '''    return Counter(map(lambda s: s.winner, [s for s in graph.nodes if s.is_over]))
''',
    # 9: a small class doing the search
    HEAD + '''    class Explorer:
        def __init__(self):
            self.graph = nx.DiGraph()
            self.queue = deque([start])
            self.graph.add_node(start)

        def step(self):
            state = self.queue.popleft()
            for move in state.legal_moves():
                target = state.apply(move)
                if not self.graph.has_node(target):
                    self.queue.append(target)
                self.graph.add_edge(state, target, move=move)
            if len(self.graph) > max_nodes:
                raise ValueError("graph larger than max_nodes")

    explorer = Explorer()
    while explorer.queue:
        explorer.step()
    return explorer.graph
''' + OUTCOMES + '''    tally = Counter()
    for state in graph:
        if state.is_over:
            tally.update([state.winner])
    return tally
''',
    # 10: edges as tuples, add_edges_from at the end, a seen dict
    HEAD + '''    seen = {}
    work = deque([start])
    triples = []
    while work:
        st = work.pop()
        if st in seen:
            continue
        seen[st] = True
        for mv in st.legal_moves():
            nx_state = st.apply(mv)
            triples.append((st, nx_state, dict(move=mv)))
            if nx_state not in seen:
                work.append(nx_state)
    if len(seen) > max_nodes:
        raise ValueError("more than max_nodes states")
    G = nx.DiGraph()
    G.add_nodes_from(seen)
    G.add_edges_from(triples)
    return G
''' + OUTCOMES + '''    c = Counter()
    for node, deg in graph.out_degree():
        if node.is_over:
            c[node.winner] += 1
    return c
''',
    # 11: recursion with an explicit seen set passed along
    HEAD + '''    def explore(graph, state, seen):
        seen.add(state)
        if len(seen) > max_nodes:
            raise ValueError("too large")
        for move in state.legal_moves():
            nxt = state.apply(move)
            graph.add_edge(state, nxt, move=move)
            if nxt not in seen:
                explore(graph, nxt, seen)
        return graph

    g = nx.DiGraph()
    g.add_node(start)
    return explore(g, start, set())
''' + OUTCOMES + '''    return Counter({w: sum(1 for s in graph if s.is_over and s.winner == w)
                    for w in {s.winner for s in graph if s.is_over}})
''',
    # 12: a for loop over a growing list
    HEAD + '''    order = [start]
    graph = nx.DiGraph()
    graph.add_node(start)
    for state in order:
        for move in state.legal_moves():
            successor = state.apply(move)
            if successor not in graph:
                order.append(successor)
                graph.add_node(successor)
            graph.add_edge(state, successor, move=move)
        if len(order) > max_nodes:
            raise ValueError(f"{len(order)} states, limit {max_nodes}")
    return graph
''' + OUTCOMES + '''    over = (s for s in graph if s.is_over)
    return Counter(s.winner for s in over)
''',
    # 13: a deque, the check before adding, early continue
    HEAD + '''    result = nx.DiGraph()
    result.add_node(start)
    waiting = deque((start,))
    while waiting:
        x = waiting.popleft()
        if x.is_over:
            continue
        for m in x.legal_moves():
            y = x.apply(m)
            if y in result:
                result.add_edge(x, y, move=m)
                continue
            if result.number_of_nodes() >= max_nodes:
                raise ValueError("stop: too many states")
            result.add_edge(x, y, move=m)
            waiting.append(y)
    return result
''' + OUTCOMES + '''    from collections import defaultdict
    d = defaultdict(int)
    for x in graph.nodes:
        if x.is_over:
            d[x.winner] += 1
    return Counter(d)
''',
    # 14: a while True loop with a set of open states
    HEAD + '''    g = nx.DiGraph()
    g.add_node(start)
    open_states = {start}
    done = set()
    while True:
        if not open_states:
            break
        s = open_states.pop()
        done.add(s)
        for m in s.legal_moves():
            t = s.apply(m)
            g.add_edge(s, t, move=m)
            if t not in done and t not in open_states:
                open_states.add(t)
        if len(done) + len(open_states) > max_nodes:
            raise ValueError("max_nodes")
    return g
''' + OUTCOMES + '''    answer = Counter()
    for s in list(graph):
        if s.is_over is True:
            answer[s.winner] += 1
    return answer
''',
    # 15: nx.DiGraph built with an edge list and node list, visited as a list
    HEAD + '''    nodes = [start]
    edge_list = []
    position = 0
    while position < len(nodes):
        cur = nodes[position]
        position = position + 1
        for legal in cur.legal_moves():
            res = cur.apply(legal)
            edge_list.append((cur, res, {"move": legal}))
            if res not in nodes:
                nodes.append(res)
                if len(nodes) > max_nodes:
                    raise ValueError("exceeded")
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edge_list)
    return graph
''' + OUTCOMES + '''    return Counter(node.winner for node in graph.nodes if node.is_over)
''',
    # 16: a generator of (state, move, next) triples, then the graph
    HEAD + '''    def walk():
        seen = set([start])
        line = deque([start])
        while line:
            s = line.popleft()
            for m in s.legal_moves():
                t = s.apply(m)
                yield s, m, t
                if t not in seen:
                    seen.add(t)
                    line.append(t)
                    if len(seen) > max_nodes:
                        raise ValueError("too many states")

    graph = nx.DiGraph()
    graph.add_node(start)
    for s, m, t in walk():
        graph.add_edge(s, t, move=m)
    return graph
''' + OUTCOMES + '''    out = Counter()
    for node in graph.nodes:
        out[node.winner] += node.is_over
    return Counter({k: v for k, v in out.items() if v > 0})
''',
    # 17: depth first with a stack of (state, moves) iterators
    HEAD + '''    g = nx.DiGraph()
    g.add_node(start)
    stack = [(start, iter(start.legal_moves()))]
    while stack:
        state, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            continue
        child = state.apply(move)
        fresh = child not in g
        g.add_edge(state, child, move=move)
        if fresh:
            if len(g) > max_nodes:
                raise ValueError("too many nodes")
            stack.append((child, iter(child.legal_moves())))
    return g
''' + OUTCOMES + '''    import collections
    return collections.Counter(s.winner for s, d in graph.out_degree() if s.is_over)
''',
    # 18: one function that does both with a dict of counts
    HEAD + '''    G = nx.DiGraph()
    to_visit = deque()
    to_visit.append(start)
    G.add_node(start)
    count = 1
    while to_visit:
        parent = to_visit.popleft()
        for option in parent.legal_moves():
            kid = parent.apply(option)
            if not G.has_node(kid):
                count += 1
                if count > max_nodes:
                    raise ValueError("Too many!")
                G.add_node(kid)
                to_visit.append(kid)
            G.add_edge(parent, kid, move=option)
    return G
''' + OUTCOMES + '''    ends = {}
    for n in G_nodes(graph):
        if n.is_over:
            ends[n.winner] = ends.get(n.winner, 0) + 1
    return Counter(ends)


def G_nodes(graph):
    return list(graph.nodes)
''',
    # 19: sets and a comprehension per layer
    HEAD + '''    graph = nx.DiGraph()
    graph.add_node(start)
    layer = [start]
    while layer:
        pairs = [(s, m, s.apply(m)) for s in layer for m in s.legal_moves()]
        fresh = []
        for s, m, t in pairs:
            if t not in graph and t not in fresh:
                fresh.append(t)
            graph.add_edge(s, t, move=m)
        if len(graph) > max_nodes:
            raise ValueError("state graph too large")
        layer = fresh
    return graph
''' + OUTCOMES + '''    c = Counter()
    c.update([s.winner for s in graph if s.is_over])
    return c
''',
    # 20: nx's own add_edge with an attribute dict, a visited list and a counter check first
    HEAD + '''    if max_nodes < 1:
        raise ValueError("max_nodes must be positive")
    dg = nx.DiGraph()
    visited = []
    agenda = deque([start])
    while agenda:
        v = agenda.pop()
        if v in visited:
            continue
        visited.append(v)
        if len(visited) > max_nodes:
            raise ValueError("the state graph has more than max_nodes states")
        dg.add_node(v)
        for mv in v.legal_moves():
            w = v.apply(mv)
            dg.add_edge(v, w, **{"move": mv})
            agenda.append(w)
    return dg
''' + OUTCOMES + '''    ended = [v for v in graph if v.is_over]
    return Counter(v.winner for v in ended)
''',
]

#: A learner's own solution, longer than most: the one that is copied.
ORIGINAL = HEAD + '''    # breadth first: every state once, every move an edge
    graph = nx.DiGraph()
    graph.add_node(start)
    frontier = deque([start])
    explored = {start: 0}
    while frontier:
        state = frontier.popleft()
        depth = explored[state]
        options = sorted(state.legal_moves(), key=str)
        for option in options:
            following = state.apply(option)
            if following not in explored:
                explored[following] = depth + 1
                if len(explored) > max_nodes:
                    raise ValueError(f"reachable: more than {max_nodes} states (depth {depth})")
                frontier.append(following)
            graph.add_edge(state, following, move=option)
    graph.graph["depth"] = max(explored.values())
    return graph
''' + OUTCOMES + '''    # the final states by who won them
    ending = {}
    for state in graph.nodes:
        if state.is_over and graph.out_degree(state) == 0:
            key = state.winner
            ending[key] = ending.get(key, 0) + 1
    return Counter(ending)
'''

#: ORIGINAL copied: the functions in the other order, every variable renamed, the comments rewritten.
COPY = '''def outcomes(graph):
    """A Counter of how the hands in graph end: winner seat -> number of final states (None: blocked)."""
    # count who won each finished hand
    result = {}
    for s in graph.nodes:
        if s.is_over and graph.out_degree(s) == 0:
            who = s.winner
            result[who] = result.get(who, 0) + 1
    return Counter(result)


''' + HEAD + '''    # a queue so that we visit states level by level
    g = nx.DiGraph()
    g.add_node(start)
    todo = deque([start])
    level = {start: 0}
    while todo:
        cur = todo.popleft()
        d = level[cur]
        moves = sorted(cur.legal_moves(), key=str)
        for m in moves:
            nxt = cur.apply(m)
            if nxt not in level:
                level[nxt] = d + 1
                if len(level) > max_nodes:
                    raise ValueError(f"too many states: over {max_nodes} (level {d})")
                todo.append(nxt)
            g.add_edge(cur, nxt, move=m)
    g.graph["depth"] = max(level.values())
    return g
'''
