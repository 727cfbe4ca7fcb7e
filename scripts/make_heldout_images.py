#!/usr/bin/python3
"""Write megapixel test images that the megapixel path was not developed on, for
bench/heldout.sh (docs/experiments-megapixel.md, "Images it was not tuned on").

recover's defaults for large images (graph subspace pursuit, coarse to fine) were
developed on the retinal vessel maps of data/; these images have other shapes: blocky,
thick strokes, thin curves, many components, fragmented edges. Deterministic (fixed
seeds, Debian's python3-skimage data):

  angio_1000.npy    data/angio.npy's support enlarged 10 x 10 (1000 x 1000): one
                    blocky component
  mnist3_1024.npy   data/mnist_3.npy's intensity resized to 1024 x 1024 (bilinear) and
                    thresholded at half its maximum: one thick stroke
  curves_1024.npy   12 random walks with smooth turns (seed 7), 3 px steps, dilated by a
                    disk of radius 2: thin curves, a few components
  text_1024.npy     skimage's text image resized to 1024 px high, its left 1024 columns,
                    pixels darker than 0.8 times the Otsu threshold: letters, tens of
                    components
  coins_1024.npy    the Sobel edge magnitude of skimage's coins image resized to
                    1024 x 1024, its top 8 %: fragmented edges, about 2000 components

Values are 1.0 on the support and 0.0 elsewhere (float64 .npy). With --stroke-sides,
also the MNIST stroke at those sides (mnist3_256.npy, ...: the same recipe), for quick
runs at the same phase transition.

    /usr/bin/python3 scripts/make_heldout_images.py OUT_DIR [--stroke-sides 256,512]
"""
import os
import sys

import numpy as np
from skimage import data, draw, filters, morphology, transform


def random_curves(side, walks, seed):
    rng = np.random.default_rng(seed)
    img = np.zeros((side, side), bool)
    for _ in range(walks):
        r, c = rng.integers(side // 10, side - side // 10, 2).astype(float)
        angle = rng.uniform(0.0, 2.0 * np.pi)
        for _ in range(400):
            angle += rng.normal(0.0, 0.15)
            r2, c2 = r + 3.0 * np.sin(angle), c + 3.0 * np.cos(angle)
            if not (2 < r2 < side - 3 and 2 < c2 < side - 3):
                break
            rr, cc = draw.line(int(r), int(c), int(r2), int(c2))
            img[rr, cc] = True
            r, c = r2, c2
    return morphology.binary_dilation(img, morphology.disk(2))


def stroke(mnist, side):
    return transform.resize(mnist / mnist.max(), (side, side), order=1) > 0.5


def main():
    args = sys.argv[1:]
    sides = []
    if len(args) == 3 and args[1] == "--stroke-sides":
        try:
            sides = [int(v) for v in args[2].split(",")]
        except ValueError:
            sides = [0]
        if any(v < 28 for v in sides):
            sys.exit(f"make_heldout_images.py: --stroke-sides wants sides >= 28 separated by "
                     f"commas, got '{args[2]}'")
    elif len(args) != 1:
        sys.exit("usage: make_heldout_images.py OUT_DIR [--stroke-sides 256,512]")
    out = args[0]
    os.makedirs(out, exist_ok=True)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    angio = np.load(os.path.join(here, "angio.npy"))
    mnist = np.load(os.path.join(here, "mnist_3.npy")).astype(float)
    text = data.text().astype(float)
    text = transform.resize(text, (1024, 1024 * text.shape[1] // text.shape[0]),
                            order=1)[:, :1024]
    edges = filters.sobel(transform.resize(data.coins().astype(float), (1024, 1024), order=1))
    images = {
        "angio_1000": np.kron(angio != 0, np.ones((10, 10))),
        "mnist3_1024": stroke(mnist, 1024),
        "curves_1024": random_curves(1024, 12, 7),
        "text_1024": text < 0.8 * filters.threshold_otsu(text),
        "coins_1024": edges > np.quantile(edges, 0.92),
    }
    for side in sides:
        images[f"mnist3_{side}"] = stroke(mnist, side)
    for name, img in images.items():
        path = os.path.join(out, name + ".npy")
        np.save(path + ".tmp.npy", img.astype(np.float64))
        os.replace(path + ".tmp.npy", path)
        print(f"{path}: {img.shape[0]} x {img.shape[1]}, {int(img.sum())} nonzeros")


if __name__ == "__main__":
    main()
