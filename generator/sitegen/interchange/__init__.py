"""Interchange with other result formats: Hugging Face model cards (`model-index`) and `.eval_results/` YAML,
and Every Eval Ever (EEE) JSON. Importers turn a file into our result records (the shape of a result in
scores/imported/<source>.yaml); exporters turn records or boards back into the other format, deterministically.
"""
