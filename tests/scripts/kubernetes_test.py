#!/usr/bin/env python3
"""deploy/ checked offline (no cluster, no image build): the manifests parse as Kubernetes objects
(kubectl) and, where the kubernetes-validate package is installed, pass the API schemas strictly;
they agree with each other (selectors, ports, the generator count, the results volume); the
generator Job and the server run exactly the commands `scripts/multihost --dry-run` prints; and
deploy/Dockerfile is Debian 12, installs in its build stage only packages scripts/setup installs,
and in its runtime stage the packages of the libraries the wirebench binary links.

Why not `kubectl apply --dry-run=client`: even a client dry-run asks an API server for its resource
types (discovery), so without a cluster it fails; `kubectl label --local` decodes the same files
without one. Exit 77 (a ctest skip) without kubectl.
  kubernetes_test.py SOURCE_DIR [WIREBENCH]"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

src = sys.argv[1]
wirebench = sys.argv[2] if len(sys.argv) > 2 else None
failures, skipped = [], []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def manifests():
    """Every object under deploy/kubernetes/, as kubectl decodes it."""
    out = subprocess.run(["kubectl", "label", "--local", "-f", os.path.join(src, "deploy/kubernetes"),
                          "wirebench-check=offline", "-o", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"FAIL: kubectl cannot decode deploy/kubernetes/: {out.stderr.strip()}")
    docs, text, at = [], out.stdout, 0
    decoder = json.JSONDecoder()
    while text[at:].strip():  # kubectl prints one JSON document per object, back to back
        doc, end = decoder.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
        docs.extend(doc["items"] if doc.get("kind") == "List" else [doc])
        at = end
    return docs


def schema_check(docs):
    try:
        import kubernetes_validate
    except ImportError:
        skipped.append("schemas: no kubernetes-validate (pip install kubernetes-validate)")
        return
    for d in docs:
        try:
            kubernetes_validate.validate(d, kubernetes_validate.utils.latest_version(), strict=True)
        except Exception as e:  # its ValidationError says which field
            failures.append(f"schema: {d['kind']}/{d['metadata']['name']}: {str(e).splitlines()[0]}")


def env(container, name):
    return next((e["value"] for e in container.get("env", []) if e["name"] == name), None)


def normalize(tokens):
    """A command with what differs by place made alike: the program's path, the server's host,
    the listen address, the results directory and the generator's index."""
    out = []
    for t in tokens:
        t = re.sub(r"^tcp://[^:/]+:", "tcp://HOST:", t)
        t = re.sub(r"gen-(\$\{?JOB_COMPLETION_INDEX\}?|\d+)\.json$", "gen-INDEX.json", t)
        t = re.sub(r"^.*/(gen-INDEX\.json)$", r"RESULTS/\1", t)
        out.append(t)
    if out and os.path.basename(out[0]) == "wirebench":
        out[0] = "wirebench"
    return out


def multihost_commands(protocol, port, threads, generators, run_options):
    cmd = [os.path.join(src, "scripts/multihost"), "--dry-run", "--wirebench", "wirebench", "-p", protocol,
           "--port", port, "--server-threads", threads, "-g", str(generators), "-o", "/results", "--"]
    out = subprocess.run(cmd + run_options, capture_output=True, text=True)
    check(out.returncode == 0, f"scripts/multihost --dry-run failed: {out.stderr.strip()}")
    return [normalize(line.split()) for line in out.stdout.splitlines()]


def commands(docs):
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)
    deployment, service, pvc = by_kind["Deployment"][0], by_kind["Service"][0], by_kind["PersistentVolumeClaim"][0]
    jobs = by_kind["Job"]
    gen = next(j for j in jobs if j["spec"].get("completionMode") == "Indexed")
    merge = next(j for j in jobs if j is not gen)

    # The generator count: completions = parallelism = GENERATORS, in the merge Job too.
    spec = gen["spec"]
    n = spec["completions"]
    gen_box = spec["template"]["spec"]["containers"][0]
    merge_box = merge["spec"]["template"]["spec"]["containers"][0]
    check(spec["parallelism"] == n, "generator Job: parallelism != completions (they must start together)")
    check(env(gen_box, "GENERATORS") == str(n), "generator Job: GENERATORS != completions")
    check(env(merge_box, "GENERATORS") == str(n), "merge Job: GENERATORS != the generator Job's completions")
    for job in (gen, merge):
        claims = [v["persistentVolumeClaim"]["claimName"] for v in job["spec"]["template"]["spec"]["volumes"]]
        check(claims == [pvc["metadata"]["name"]], f"{job['metadata']['name']}: not on the results volume")

    # The server: the Service finds its pods, on the port it listens on.
    box = deployment["spec"]["template"]["spec"]["containers"][0]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    check(all(labels.get(k) == v for k, v in service["spec"]["selector"].items()), "Service selects no server pod")
    serve = normalize(["wirebench"] + box["args"])
    listen = box["args"][box["args"].index("--listen") + 1]
    port = listen.rsplit(":", 1)[1]
    check(str(service["spec"]["ports"][0]["targetPort"]) == port, "Service targetPort is not the listen port")

    # The generator's load command: the `wirebench run` in its script, up to `&&`.
    script = " ".join(gen_box["args"])
    run = shlex.split(script[script.index("wirebench run"):].split("&&")[0])
    connect = run[run.index("--connect") + 1]
    check(connect == f"tcp://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}",
          f"generator connects to {connect}, not to the Service")
    check("merge /results/gen-*.json -o /results/all.json" in " ".join(merge_box["args"]),
          "merge Job does not merge /results/gen-*.json into /results/all.json")
    if not check("-q" in run and "-o" in run, f"generator runs {' '.join(run)}: not scripts/multihost's form"):
        return
    options = run[run.index(connect) + 1:run.index("-q")]
    threads = box["args"][box["args"].index("--threads") + 1]
    want = multihost_commands(run[run.index("-p") + 1], port, threads, n, options)
    if want:
        check(serve == want[0], f"server runs {' '.join(serve)}; scripts/multihost runs {' '.join(want[0])}")
        check(normalize(run) == want[1],
              f"generators run {' '.join(normalize(run))}; scripts/multihost runs {' '.join(want[1])}")


def setup_packages():
    text = open(os.path.join(src, "scripts/setup")).read()
    block = re.search(r"^packages=\((.*?)^\)", text, re.S | re.M).group(1)
    return {w for line in block.splitlines() for w in line.split("#")[0].split()}


def dockerfile():
    text = open(os.path.join(src, "deploy/Dockerfile")).read().replace("\\\n", " ")
    stages = re.split(r"^FROM ", text, flags=re.M)[1:]
    check(len(stages) == 2, "Dockerfile: not a build stage and a runtime stage")
    check(stages[0].startswith("debian:bookworm AS build"), "Dockerfile: build stage is not debian:bookworm")
    check(stages[-1].startswith("debian:bookworm-slim"), "Dockerfile: runtime stage is not debian:bookworm-slim")

    def installed(stage):
        m = re.search(r"apt-get install ([^&]*)", stage)
        return {w for w in m.group(1).split() if not w.startswith("-")} if m else set()

    extra = installed(stages[0]) - setup_packages()
    check(not extra, f"Dockerfile build stage installs what scripts/setup does not: {sorted(extra)}")
    if not (wirebench and shutil.which("ldd") and shutil.which("dpkg")):
        skipped.append("runtime packages: no wirebench binary, ldd or dpkg to compare with")
        return
    libs = re.findall(r"=> (/\S+)", subprocess.run(["ldd", wirebench], capture_output=True, text=True).stdout)
    owners = set()
    for lib in libs:
        # By its folder's name too (x86_64-linux-gnu/libm.so.6): the path dpkg lists may be /usr's
        # (merged /usr), and the bare name is also another architecture's (libc6-i386's lib32).
        name = os.path.join(os.path.basename(os.path.dirname(lib)), os.path.basename(lib))
        found = subprocess.run(["dpkg", "-S", "*/" + name], capture_output=True, text=True)
        owners |= {line.split(":")[0] for line in found.stdout.splitlines()[:1]}
    # A sanitizer build links its runtime too; the image builds a plain release.
    owners = {p for p in owners if not re.match(r"lib(a|ub|t|l)san\d", p)}
    check(installed(stages[-1]) == owners, f"Dockerfile runtime packages {sorted(installed(stages[-1]))}, "
                                           f"but wirebench links the libraries of {sorted(owners)}")


if not shutil.which("kubectl"):
    print("SKIP: no kubectl to decode deploy/kubernetes/")
    sys.exit(77)
docs = manifests()
schema_check(docs)
commands(docs)
dockerfile()
for s in skipped:
    print(f"skipped part: {s}")
for f in failures:
    print(f"FAIL: {f}", file=sys.stderr)
sys.exit(1 if failures else 0)
