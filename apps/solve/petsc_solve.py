#!/usr/bin/env python3
"""Solves a system texstream wrote in PETSc's binary format with PETSc's KSP, on any
number of MPI ranks: the hand-off for systems that outgrow one GPU.

    texstream-solve A.mtx b.mtx --export-petsc DIR          # or texstream-param --export-system DIR --export-format petsc
    mpirun -n 4 python3 petsc_solve.py DIR/system.petsc --pc gamg --rtol 1e-8 --out x.mtx

The file holds the matrix and then one or more right-hand sides (the layout of PETSc's KSP
tutorial ex10); each is solved in turn. Defaults: CG (the matrices texstream writes are
symmetric positive definite) with algebraic multigrid (GAMG; --pc hypre uses hypre's
BoomerAMG where PETSc was built with it, as Debian's is). Any PETSc option may follow
(-ksp_monitor, -ksp_view, ...). --out writes the solutions as Matrix Market arrays
(x.mtx, then x1.mtx, ...), --json a report (iterations, reason, residuals, time).
Exit status: 0 every system converged, 1 one did not, 2 bad arguments or files.

Debian: apt-get install python3-petsc4py-real (OpenMPI and hypre come with it). Where
`import petsc4py` fails because no default PETSc is selected (the dev package sets it),
the newest real build under /usr/lib/petscdir is used.
"""
import argparse
import glob
import json
import os
import sys
import time


def import_petsc(argv):
    try:
        import petsc4py  # noqa: F401
    except ImportError:
        builds = sorted(glob.glob("/usr/lib/petscdir/petsc*/*-real"))
        if not builds:
            sys.exit("petsc_solve.py: petsc4py is not installed: apt-get install python3-petsc4py-real")
        os.environ.setdefault("PETSC_DIR", builds[-1])
        sys.path.append(os.path.join(os.environ["PETSC_DIR"], "lib/python3/dist-packages"))
        import petsc4py  # noqa: F401
    import petsc4py
    petsc4py.init(argv)
    from petsc4py import PETSc
    return PETSc


def read_matrix_market_array(path):
    """The values of a Matrix Market `array real` n x 1 file."""
    with open(path) as f:
        lines = [line for line in f if line.strip() and not line.startswith("%")]
    rows, cols = (int(t) for t in lines[0].split()[:2])
    if cols != 1:
        sys.exit(f"petsc_solve.py: {path}: {rows} x {cols}, expected one column")
    return [float(line.split()[0]) for line in lines[1:1 + rows]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("system", nargs="?", help="PETSc binary file: a matrix, then right-hand sides")
    parser.add_argument("--available", action="store_true",
                        help="only check that petsc4py can be imported: exit 0, or 77 with the reason")
    parser.add_argument("--ksp", default="cg", help="KSP type (default cg)")
    parser.add_argument("--pc", default="gamg", help="preconditioner: gamg (default), hypre (BoomerAMG), jacobi, ...")
    parser.add_argument("--rtol", type=float, default=1e-8, help="relative residual tolerance (default 1e-8)")
    parser.add_argument("--max-it", type=int, default=10000, help="iteration cap (default 10000)")
    parser.add_argument("--out", help="write the solutions as Matrix Market arrays (x.mtx, x1.mtx, ...)")
    parser.add_argument("--json", help="write a report")
    parser.add_argument("--compare", help="a Matrix Market array (texstream's x) to compare the first solution with")
    parser.add_argument("--compare-tol", type=float, default=1e-4,
                        help="largest max|x - x_other| / max|x| accepted by --compare (default 1e-4; exit 1 beyond)")
    args, petsc_args = parser.parse_known_args()
    if args.available:
        try:
            import_petsc([sys.argv[0]])
        except SystemExit as e:
            print(e, file=sys.stderr)
            return 77
        return 0
    if not args.system:
        parser.error("the system file is required")
    PETSc = import_petsc([sys.argv[0]] + petsc_args)
    comm = PETSc.COMM_WORLD
    rank = comm.getRank()

    if not os.path.isfile(args.system):
        if rank == 0:
            print(f"petsc_solve.py: {args.system}: no such file", file=sys.stderr)
        return 2
    size = os.path.getsize(args.system)
    viewer = PETSc.Viewer().createBinary(args.system, mode="r", comm=comm)
    try:
        A = PETSc.Mat().create(comm=comm)
        A.setType(PETSc.Mat.Type.AIJ)
        A.load(viewer)
    except PETSc.Error as e:
        if rank == 0:
            print(f"petsc_solve.py: {args.system}: not a PETSc binary matrix ({e})", file=sys.stderr)
        return 2
    n = A.getSize()[0]
    # Right-hand sides follow the matrix until the end of the file: each takes 8 + 8 n bytes.
    info = A.getInfo()
    header = 16 + 4 * n + 12 * int(info["nz_used"])
    count = max(0, (size - header) // (8 + 8 * n))
    if count == 0:
        if rank == 0:
            print(f"petsc_solve.py: {args.system}: the matrix is not followed by a right-hand side", file=sys.stderr)
        return 2

    ksp = PETSc.KSP().create(comm=comm)
    ksp.setOperators(A)
    ksp.setType(args.ksp)
    ksp.getPC().setType(args.pc)
    ksp.setTolerances(rtol=args.rtol, atol=0.0, max_it=args.max_it)
    ksp.setFromOptions()
    report = {"file": args.system, "rows": n, "ranks": comm.getSize(), "ksp": ksp.getType(),
              "pc": ksp.getPC().getType(), "rtol": args.rtol, "systems": []}
    status = 0
    first_solution = None
    for k in range(count):
        b = PETSc.Vec().create(comm=comm)
        b.load(viewer)
        x = b.duplicate()
        x.set(0.0)
        start = time.perf_counter()
        ksp.solve(b, x)
        seconds = time.perf_counter() - start
        r = b.duplicate()
        A.mult(x, r)
        r.aypx(-1.0, b)
        bnorm = b.norm()
        relres = r.norm() / bnorm if bnorm > 0 else r.norm()
        reason = ksp.getConvergedReason()
        converged = reason > 0
        status = status if converged else 1
        entry = {"iterations": ksp.getIterationNumber(), "reason": int(reason), "converged": converged,
                 "relative_residual": relres, "seconds": seconds}
        report["systems"].append(entry)
        if rank == 0:
            print(f"petsc_solve.py: system {k}: {entry['iterations']} iterations, reason {reason}, "
                  f"||b - A x||/||b|| = {relres:.3g}, {seconds:.3f} s on {comm.getSize()} ranks")
        scatter, full = PETSc.Scatter.toZero(x)
        scatter.scatter(x, full, False, PETSc.Scatter.Mode.FORWARD)
        if k == 0 and rank == 0:
            first_solution = list(full.getArray())
        if args.out:
            if rank == 0:
                base, ext = os.path.splitext(args.out)
                path = args.out if k == 0 else f"{base}{k}{ext}"
                values = full.getArray()
                with open(path, "w") as f:
                    f.write("%%MatrixMarket matrix array real general\n")
                    f.write(f"% PETSc {ksp.getType()}/{ksp.getPC().getType()} solution of {args.system}, system {k}\n")
                    f.write(f"{len(values)} 1\n")
                    f.writelines(f"{v:.17g}\n" for v in values)
    if args.compare and rank == 0:
        other = read_matrix_market_array(args.compare)
        if len(other) != len(first_solution):
            print(f"petsc_solve.py: {args.compare}: {len(other)} values, the system has {len(first_solution)}",
                  file=sys.stderr)
            return 2
        scale = max(max(abs(v) for v in first_solution), 1e-300)
        difference = max(abs(a - b) for a, b in zip(first_solution, other)) / scale
        report["compare_max_relative_difference"] = difference
        agrees = difference <= args.compare_tol
        print(f"petsc_solve.py: max |x_petsc - x_other| / max |x_petsc| = {difference:.3g} "
              f"({'within' if agrees else 'beyond'} {args.compare_tol:g}) against {args.compare}")
        status = status if agrees else 1
    if args.json and rank == 0:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return status


if __name__ == "__main__":
    sys.exit(main())
