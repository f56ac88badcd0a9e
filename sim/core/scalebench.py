"""`python -m sim.core.scalebench` still works (older commands and benchmarks/HISTORY.md quote it): the study
lives in sim/studies/scalebench.py. Importing this module imports nothing; only running it does."""

if __name__ == "__main__":
    import runpy

    runpy.run_module("sim.studies.scalebench", run_name="__main__", alter_sys=True)
