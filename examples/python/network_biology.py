#!/usr/bin/env python3
"""Network biology: find the pathway behind a list of scored genes with a rooted
prize-collecting Steiner forest on a protein interaction network, as OmicsIntegrator
does (its Graph.pcsf makes this very call to pcst_fast; gsfw.pcst_fast answers it).

    .venv/bin/python examples/python/network_biology.py

The network is protein-interaction-like: preferential attachment (a few hubs, many
proteins with few partners), each interaction with a confidence in (0, 1] as STRING
gives. A pathway of 30 connected proteins is planted; 20 of them were measured (node
score = -log10 p, noisy) and 10 were not (score 0: they can only be found as Steiner
nodes, connectors between measured ones). 60 other proteins carry noise scores.

The PCSF's edge cost is 1 - confidence (a confidence is a strength, not a cost:
gsfw.Graph.from_networkx takes unit costs unless told which attribute is the cost), the
prize of a protein is beta * score, and a dummy root joined to every scored protein by
an edge of cost w lets the forest have several trees (one per dummy edge kept), the
rooted call pcst_fast(..., root=dummy, num_clusters=1, ...).
"""
import networkx as nx
import numpy as np

import gsfw

rng = np.random.default_rng(7)
n = 1500
G = nx.barabasi_albert_graph(n, 2, seed=7)
G = nx.relabel_nodes(G, {i: "P%04d" % i for i in G})  # protein names
for u, v in G.edges:
    G.edges[u, v]["confidence"] = rng.uniform(0.1, 0.5)  # background interactions

# the pathway: a connected set of 30 proteins grown from a mid-degree protein, whose
# interactions are confident
start = "P0400"
pathway = [start]
while len(pathway) < 30:
    frontier = sorted({v for u in pathway for v in G[u]} - set(pathway))
    pathway.append(frontier[rng.integers(len(frontier))])
for u in pathway:
    for v in G[u]:
        if v in pathway:
            G.edges[u, v]["confidence"] = rng.uniform(0.85, 0.99)
measured = set(rng.choice(pathway, size=20, replace=False).tolist())
decoys = rng.choice(sorted(set(G) - set(pathway)), size=60, replace=False).tolist()
score = {p: 0.0 for p in G}
for p in measured:
    score[p] = rng.uniform(3.0, 8.0)   # -log10 p of a real hit
for p in decoys:
    score[p] = rng.uniform(0.5, 4.0)   # noise hits, scattered over the network

# the PCSF instance, in pcst_fast's arrays: edges, prizes, costs
for u, v in G.edges:
    G.edges[u, v]["cost"] = 1.0 - G.edges[u, v]["confidence"]
graph = gsfw.Graph.from_networkx(G, cost="cost")       # labels -> 0..n-1: graph.index
beta, w = 0.25, 2.0
prizes = beta * np.array([score[p] for p in graph.nodes])
terminals = np.flatnonzero(prizes > 0)
dummy = graph.n
edges = np.vstack([graph.edges, np.column_stack([np.full(len(terminals), dummy), terminals])])
costs = np.concatenate([graph.costs, np.full(len(terminals), w)])
prizes = np.append(prizes, 0.0)

vertices, chosen = gsfw.pcst_fast(edges, prizes, costs, dummy, 1, "strong", 0)
forest = [graph.nodes[i] for i in vertices if i != dummy]
found = set(forest) & set(pathway)
steiner = found - measured
print("network: %d proteins, %d interactions; %d scored (%d real hits, %d noise)"
      % (graph.n, graph.m, len(terminals), len(measured), len(decoys)))
print("forest: %d proteins in %d trees" % (len(forest),
                                            int(np.sum(edges[chosen][:, 0] == dummy))))
print("pathway recovered: %d of 30 (precision %.2f), of them %d unmeasured Steiner proteins"
      % (len(found), len(found) / max(1, len(forest)), len(steiner)))
print("noise hits kept: %d of %d" % (len(set(forest) & set(decoys)), len(decoys)))
top = sorted(score, key=score.get, reverse=True)[:len(forest)]
print("for comparison, the %d best-scored proteins: %d on the pathway (precision %.2f), "
      "no Steiner protein" % (len(top), len(set(top) & set(pathway)),
                              len(set(top) & set(pathway)) / len(top)))
assert len(found) >= 20 and len(found) / len(forest) >= 0.8 and steiner
