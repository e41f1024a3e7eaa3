"""The mountain's geometry (spec §3.2, checklist 27)."""
from games.nanga_parbat.rules import data


def _border_edges():
    edges = set()
    items = list(data.LAYOUT.items())
    for i, (a, (ra, xa)) in enumerate(items):
        for b, (rb, xb) in items[i + 1:]:
            if (ra == rb and abs(xa - xb) == 1) or (abs(ra - rb) == 1 and abs(xa - xb) == 0.5):
                edges.add(frozenset((a, b)))
    return edges


def _adjacency_edges():
    return {frozenset((a, b)) for a, ns in data.ADJACENCY.items() for b in ns}


def test_adjacency_is_symmetric_and_sorted():
    for a, ns in data.ADJACENCY.items():
        assert ns == sorted(ns)
        for b in ns:
            assert a in data.ADJACENCY[b]


def test_adjacency_has_72_edges():
    assert len(_adjacency_edges()) == 72


def test_adjacency_is_connected():
    seen, stack = {11}, [11]
    while stack:
        for n in data.ADJACENCY[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    assert seen == set(data.SECTIONS)


def test_adjacency_equals_layout_borders_plus_dotted_paths():
    dotted = {frozenset(e) for e in data.DOTTED_EDGES}
    assert len(dotted) == 9
    assert not dotted & _border_edges()
    assert _adjacency_edges() == _border_edges() | dotted


def test_degree_profile_matches_the_spec():
    degrees = sorted(len(ns) for ns in data.ADJACENCY.values())
    assert degrees.count(2) == 3 and degrees.count(3) == 12
    assert degrees.count(4) == 12 and degrees.count(6) == 9


def test_chart_data():
    assert data.NEED == [6, 5, 4, 3, 3]
    assert sum(sum(v) for v in data.VALUE.values()) == 109
    assert data.CHART_VERIFIED is False
