"""Classify a collection with hdp from Python, plot its levels, and draw one puzzle's tree.

    pip install ./python pandas matplotlib      # once, from the repository's root
    python examples/python/classify.py [PUZZLES.txt] [OUT_DIR]

Runs as a script, or cell by cell in Jupyter or VS Code (the `# %%` marks): there the tree and the
puzzle show themselves as pictures. Without matplotlib the levels are printed as a text chart.
"""

# %%
import sys
from pathlib import Path

import pandas as pd

import hdp

root = Path(__file__).resolve().parents[2]
source = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "tests" / "data" / "top95.txt"
out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(".")

# %% Classify every line of the file (in parallel, records in input order).
lines = source.read_text().splitlines()
frame = hdp.classify_frame(pd.Series(lines))
levels = ["trivial", "easy", "medium", "hard", "deep", "extreme", "unsolved"]
counts = frame["level"].value_counts().reindex(levels, fill_value=0)
print(f"{len(frame)} puzzles of {source.name}:")
print(counts.to_string())

# %% Plot the levels.
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = counts.plot.bar(title=f"hdp levels of {source.name}", ylabel="puzzles", rot=0)
    plt.tight_layout()
    plt.savefig(out / "levels.png")
    print(f"wrote {out / 'levels.png'}")
except ImportError:
    for level, n in counts.items():
        print(f"{level:>9} {'#' * n}")

# %% The hardest puzzle's chain and its decision tree (a picture in a notebook).
hardest = frame.sort_values(["depth_pairs", "tests"], ascending=False).iloc[0]
result = hdp.chain(hardest["puzzle"])
print(f"the hardest: line {hardest['line']}, level {hardest['level']}")
print(result.text)
tree = result.tree  # in Jupyter, `tree` alone on the last line of a cell draws it
(out / "tree.svg").write_text(tree.svg)
print(f"wrote {out / 'tree.svg'}")
