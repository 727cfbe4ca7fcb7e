#!/usr/bin/python3
"""Two-class Fashion-MNIST problems for graph-sparse logistic regression.

Reads the idx files of Debian's dataset-fashion-mnist package (gzip-compressed idx3
images, idx1 labels) and writes, for the classes NEG (label -1) and POS (label +1):

  OUT/train_X.npy, OUT/train_y.npy   fitting part of the training set
  OUT/val_X.npy,   OUT/val_y.npy     validation part (held out from the training set)
  OUT/test_X.npy,  OUT/test_y.npy    the official test set (all images of both classes)
  OUT/mean_neg.npy, OUT/mean_pos.npy class mean images (28 x 28, of train + val)

X is float64, one row per image, 784 columns in row-major pixel order (pixel (r, c) is
column 28 r + c, the vertex numbering of gsfw's grid:28x28 graph), pixels scaled to
[0, 1]. With --standardise each column is centred and divided by its standard deviation
over the fitting part (columns with a deviation below 1e-3 are only centred); the same
shift and scale are applied to the validation and test parts. y is int8, -1 or +1.

The fitting and validation parts are a seeded random split of the training images of the
two classes (--n-train and --n-val images, or all that remain); the split is stratified
by nothing: both classes have 6000 training images, so random halves stay balanced.
"""
import argparse
import gzip
import os
import struct
import sys

import numpy as np

DATA_DIR = "/usr/share/datasets/fashion-mnist"
NAMES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]


def read_idx(path):
    """Array of an idx file (magic 0x0000 TT NN, NN big-endian dimension sizes)."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    zero, dtype_code, ndim = struct.unpack(">HBB", raw[:4])
    if zero != 0 or dtype_code != 0x08:
        raise ValueError(f"{path}: not an unsigned-byte idx file (header {raw[:4].hex()})")
    dims = struct.unpack(">" + "I" * ndim, raw[4:4 + 4 * ndim])
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim)
    if data.size != int(np.prod(dims)):
        raise ValueError(f"{path}: {data.size} bytes of data for dimensions {dims}")
    return data.reshape(dims)


def load(kind, data_dir):
    prefix = "train" if kind == "train" else "t10k"
    images = read_idx(os.path.join(data_dir, f"{prefix}-images-idx3-ubyte.gz"))
    labels = read_idx(os.path.join(data_dir, f"{prefix}-labels-idx1-ubyte.gz"))
    if images.shape[0] != labels.shape[0] or images.shape[1:] != (28, 28):
        raise ValueError(f"{kind}: images {images.shape} do not match labels {labels.shape}")
    return images.reshape(images.shape[0], 784).astype(np.float64) / 255.0, labels


def two_classes(X, labels, neg, pos):
    keep = (labels == neg) | (labels == pos)
    y = np.where(labels[keep] == pos, 1, -1).astype(np.int8)
    return X[keep], y


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--neg", type=int, required=True, help="class with label -1 (0..9)")
    p.add_argument("--pos", type=int, required=True, help="class with label +1 (0..9)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--n-train", type=int, default=0, help="fitting images (0: all but --n-val)")
    p.add_argument("--n-val", type=int, default=2000, help="validation images (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the train/validation split")
    p.add_argument("--standardise", action="store_true",
                   help="centre and scale each pixel by the fitting part's statistics")
    p.add_argument("--data-dir", default=DATA_DIR)
    a = p.parse_args()
    if not (0 <= a.neg <= 9 and 0 <= a.pos <= 9 and a.neg != a.pos):
        sys.exit(f"fashion_prepare: --neg {a.neg} and --pos {a.pos} must be distinct classes 0..9")

    Xtr_all, ytr_all = two_classes(*load("train", a.data_dir), a.neg, a.pos)
    Xte, yte = two_classes(*load("test", a.data_dir), a.neg, a.pos)
    rng = np.random.default_rng(a.seed)
    order = rng.permutation(Xtr_all.shape[0])
    n_val = a.n_val
    n_train = a.n_train if a.n_train > 0 else Xtr_all.shape[0] - n_val
    if n_val <= 0 or n_train <= 0 or n_train + n_val > Xtr_all.shape[0]:
        sys.exit(f"fashion_prepare: --n-train {n_train} + --n-val {n_val} must be positive and "
                 f"at most {Xtr_all.shape[0]} (training images of the two classes)")
    val_idx, tr_idx = order[:n_val], order[n_val:n_val + n_train]

    means = {"neg": Xtr_all[ytr_all == -1].mean(axis=0), "pos": Xtr_all[ytr_all == 1].mean(axis=0)}
    parts = {"train": (Xtr_all[tr_idx], ytr_all[tr_idx]), "val": (Xtr_all[val_idx], ytr_all[val_idx]),
             "test": (Xte, yte)}
    if a.standardise:
        mu = parts["train"][0].mean(axis=0)
        sd = parts["train"][0].std(axis=0)
        sd[sd < 1e-3] = 1.0
        parts = {k: ((X - mu) / sd, y) for k, (X, y) in parts.items()}

    os.makedirs(a.out, exist_ok=True)
    for k, (X, y) in parts.items():
        np.save(os.path.join(a.out, f"{k}_X.npy"), np.ascontiguousarray(X))
        np.save(os.path.join(a.out, f"{k}_y.npy"), y)
    for k, m in means.items():
        np.save(os.path.join(a.out, f"mean_{k}.npy"), m.reshape(28, 28))
    sizes = ", ".join(f"{k} {X.shape[0]} ({int((y == 1).sum())} positive)" for k, (X, y) in parts.items())
    print(f"fashion_prepare: {NAMES[a.neg]} (-1) vs {NAMES[a.pos]} (+1): {sizes}"
          f"{', standardised' if a.standardise else ''}")


if __name__ == "__main__":
    main()
