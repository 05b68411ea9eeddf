"""kb's own measurement: retrieval recall and MRR, and answer pass rates on labelled sets."""
