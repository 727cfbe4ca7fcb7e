#!/usr/bin/env python3
"""Write tests/data/lesmis_edges.txt: the Les Miserables co-appearance graph (Knuth's
Stanford GraphBase, as shipped by networkx: les_miserables_graph) as a gsfw edge list.

Nodes are numbered 0..76 in networkx's node order; the numbering is listed in '#'
comments at the top. Edges are unweighted ('u v' per line, unit cost) in networkx's edge
order. Run once; the output is committed, so the tests do not need networkx
(Debian package python3-networkx).

    python3 scripts/make_lesmis_edges.py > tests/data/lesmis_edges.txt
"""
import networkx as nx


def main():
    g = nx.les_miserables_graph()
    ids = {name: i for i, name in enumerate(g.nodes())}
    print("# Les Miserables co-appearance graph (networkx les_miserables_graph), unit costs")
    print(f"# {g.number_of_nodes()} nodes, {g.number_of_edges()} edges; node ids:")
    for name, i in ids.items():
        print(f"# {i} {name}")
    for u, v in g.edges():
        print(f"{ids[u]} {ids[v]}")


if __name__ == "__main__":
    main()
