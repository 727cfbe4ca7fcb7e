#!/usr/bin/python3
"""Picture of the selected pixels: per class pair, the two class means, then the supports
of gsfw (connected-subgraph model with g regions, and top-s) and of L1-logistic regression
at s pixels, drawn over the average of the two class means. Red: weight > 0 (evidence for
the +1 class), blue: weight < 0."""
import argparse
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from fashion_table import TITLES  # noqa: E402

CLASS_NAMES = {"sandal-sneaker": ("sandal", "sneaker"), "tshirt-shirt": ("T-shirt/top", "shirt")}


def overlay(ax, background, w, title):
    ax.imshow(background, cmap="gray", vmin=0, vmax=1)
    rgba = np.zeros((28, 28, 4))
    W = w.reshape(28, 28)
    rgba[W > 0] = (0.9, 0.1, 0.1, 0.85)
    rgba[W < 0] = (0.1, 0.3, 1.0, 0.85)
    ax.imshow(rgba)
    ax.set_title(title, fontsize=8)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--results", required=True)
    p.add_argument("--pairs", required=True)
    p.add_argument("--s", type=int, default=50)
    p.add_argument("--g", type=int, default=2)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    pairs = a.pairs.split(",")
    fig, axes = plt.subplots(len(pairs), 5, figsize=(10, 2.3 * len(pairs) + 0.3), squeeze=False)
    for row, pair in zip(axes, pairs):
        d = os.path.join(a.results, pair)
        neg, pos = np.load(os.path.join(d, "mean_neg.npy")), np.load(os.path.join(d, "mean_pos.npy"))
        names = CLASS_NAMES.get(pair, ("class -1", "class +1"))
        row[0].imshow(neg, cmap="gray", vmin=0, vmax=1)
        row[0].set_title(f"mean {names[0]} (-1)", fontsize=8)
        row[1].imshow(pos, cmap="gray", vmin=0, vmax=1)
        row[1].set_title(f"mean {names[1]} (+1)", fontsize=8)
        bg = 0.5 * (neg + pos)
        for ax, label, text in [(row[2], f"subgraph-g{a.g}", f"gsfw subgraph g={a.g}"),
                                (row[3], "topk", "gsfw top-s"), (row[4], "l1", "L1 (liblinear)")]:
            path = os.path.join(d, f"w_{label}_s{a.s}.npy")
            if not os.path.exists(path):
                ax.set_title(f"{text}: not run", fontsize=8)
                continue
            w = np.load(path)
            overlay(ax, bg, w, f"{text}, {np.count_nonzero(w)} px")
        row[0].set_ylabel(TITLES.get(pair, pair).replace(" vs ", "\nvs "), fontsize=8)
        for ax in row:
            ax.set_xticks([])
            ax.set_yticks([])
    fig.suptitle(f"Selected pixels at s = {a.s} (red: weight > 0, blue: < 0)", fontsize=10)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


if __name__ == "__main__":
    main()
