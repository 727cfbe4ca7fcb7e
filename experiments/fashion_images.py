#!/usr/bin/python3
"""Fashion-MNIST images for compressive-sensing recovery, as 28 x 28 float64 .npy files.

Usage: /usr/bin/python3 experiments/fashion_images.py OUT_DIR [--part test|train]
                                                      [--count 20] [--max-fill 0.4]

Reads the idx files of Debian's dataset-fashion-mnist package (/usr/share/datasets/
fashion-mnist; `apt-get install dataset-fashion-mnist`) and writes OUT_DIR/fashion_KK.npy
(KK = 00, 01, ...): the first --count images of the part, in the file's order, whose
support (nonzero pixels) covers at most --max-fill of the 784 pixels, scaled to [0, 1].
The fill limit keeps the problem compressive: with s <= 0.4 d nonzeros, n = ratio * s
measurements stay below d = 784 up to ratio 2.5. Images are taken as they are (no
thresholding): a garment's faint pixels and isolated specks count in s and in the number
g of connected components, as gsfw recover counts them.

The test part (the default) is held out: nothing in gsfw was tuned on it. The recovery
settings were chosen on MNIST digits and on the training part (--part train).
OUT_DIR/index.csv lists file,part,index,label,s,g.
"""
import argparse
import os
import sys

import numpy as np
import scipy.ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fashion_prepare import DATA_DIR, NAMES, load  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--part", choices=["test", "train"], default="test")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--max-fill", type=float, default=0.4)
    p.add_argument("--data-dir", default=DATA_DIR)
    a = p.parse_args()
    if not os.path.isdir(a.data_dir):
        sys.exit(f"fashion_images.py: no Fashion-MNIST files in {a.data_dir} "
                 "(apt-get install dataset-fashion-mnist)")
    X, labels = load(a.part, a.data_dir)
    os.makedirs(a.out, exist_ok=True)
    rows, k = [], 0
    for i in range(X.shape[0]):
        if k == a.count:
            break
        img = X[i].reshape(28, 28)
        s = int((img > 0).sum())
        if s == 0 or s > a.max_fill * img.size:
            continue
        g = scipy.ndimage.label(img > 0)[1]  # 4-neighbour components, as gsfw counts them
        name = f"fashion_{k:02d}.npy"
        np.save(os.path.join(a.out, name), np.ascontiguousarray(img))
        rows.append(f"{name},{a.part},{i},{NAMES[labels[i]]},{s},{g}")
        k += 1
    with open(os.path.join(a.out, "index.csv"), "w") as f:
        f.write("file,part,index,label,s,g\n" + "\n".join(rows) + "\n")
    if k < a.count:
        sys.exit(f"fashion_images.py: only {k} images of the {a.part} part fit --max-fill {a.max_fill}")


if __name__ == "__main__":
    main()
