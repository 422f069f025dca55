"""The model of how a distributed rung scales past the ranks measured: a prediction, not a measurement
(docs/measurement.md, "Beyond the ranks measured").

Each rank's compute is the fewest ranks' share of the work; its communication is the messages the rung says
compute() sends (the row's "communication"), each at the cost of the link it takes. There are two kinds of
link: inside a node (fitted to the run's probe of its network, context.communication) and between nodes
(fitted to the probe where the run spanned several machines, else read from a machine file: a site's
adapters, latency and bandwidth, written down with their source). The ranks fill one node after another,
`per_node` to a node, so a prediction at 64 GPUs with 4 GPUs a node is one of 16 nodes. An exchange and an
allreduce take their own fits; a reduce inside a node its own where the probe timed one (reduce_terms),
else, and between nodes, the exchange's, as point-to-point messages in a tree.
"""
import json
import math
from pathlib import Path

PREDICTED_RANKS = (8, 64, 512)
MACHINES = Path(__file__).with_name("machines")
# The machine file used where the run had one node and names none: 4 GPUs a node, an InfiniBand HDR
# adapter for each, as on JUWELS Booster.
DEFAULT_MACHINE = MACHINES / "4-gpus-4x200g-infiniband.json"
# Every probe's and every machine file's. A probe may also hold a "reduce" (those since it was probed):
# fitted inside a node only (fit_links).
OPERATIONS = ("exchange", "allreduce")


def pattern_terms(pattern, ranks):
    """(steps, share) of one message of a pattern among `ranks` ranks: it costs alpha * steps + beta * bytes *
    share, alpha a message's latency and beta the seconds a byte takes (1 / bandwidth)."""
    if ranks <= 1:
        return 0.0, 0.0
    steps = math.ceil(math.log2(ranks))
    if pattern == "exchange":  # each rank to one neighbour, from the other, all pairs at once: p does not matter
        return 1.0, 1.0
    if pattern == "allreduce":  # a reduce-scatter then an allgather: log2 p steps each way, 2 (p-1)/p of the bytes
        return 2.0 * steps, 2.0 * (ranks - 1) / ranks
    if pattern == "reduce":  # a binomial tree (a broadcast too): log2 p messages one after another
        return float(steps), float(steps)
    raise ValueError(f"unknown communication pattern {pattern!r}")


def reduce_terms(backend, ranks):
    """(steps, share) of a reduce among `ranks` ranks priced with its own fit (the probe's "reduce"): the law
    follows how the backend runs it. NCCL pipelines a reduce in chunks along a ring (or a tree) of the GPUs, so
    a small one costs about one launch's latency whatever p (its 4-byte allreduce took 18.2 us on 2 H200s,
    19.0 on 4) and each byte crosses a link once: one step, share 1. Under log2 p steps that flat latency
    could not be fitted: 2 GPUs' and 4 GPUs' times would ask one alpha and twice it. MPI's reduce is a
    binomial tree, log2 p messages one after another, so it keeps pattern_terms' law."""
    if ranks <= 1:
        return 0.0, 0.0
    if backend == "nccl":
        return 1.0, 1.0
    return pattern_terms("reduce", ranks)


def alpha_per_step(operation, backend):
    """Whether an operation's fitted alpha is paid once a step of a tree (so grows with log2 p), by the laws
    above: the allreduce's always, a reduce's where its own law has steps (MPI's tree, not NCCL's pipeline)."""
    if operation == "reduce":
        return reduce_terms(backend, 4)[0] > 1
    return operation == "allreduce"


def fit_cost(samples):
    """(alpha, beta) of seconds = alpha * steps + beta * bytes * share over [(steps, bytes * share, seconds)], by
    least squares. A straight line because a message costs a fixed latency (software, the link's round trip)
    plus its bytes over the link's bandwidth. The squares are of the relative error, so that a 4-byte
    message's microseconds (alpha) count as much as a 64 MiB message's milliseconds (beta); neither may
    fall below zero."""
    # Divided by its time, each sample asks alpha * a + beta * b = 1: the normal equations of that.
    rows = [(steps / t, volume / t) for steps, volume, t in samples if t > 0]
    aa, ab, bb = sum(a * a for a, _ in rows), sum(a * b for a, b in rows), sum(b * b for _, b in rows)
    sa, sb = sum(a for a, _ in rows), sum(b for _, b in rows)
    determinant = aa * bb - ab * ab
    if determinant > 0:
        alpha, beta = (sa * bb - sb * ab) / determinant, (sb * aa - sa * ab) / determinant
        if alpha >= 0 and beta >= 0:
            return alpha, beta
    # Else the better of latency alone and bandwidth alone.
    return min(((sa / aa if aa else 0.0, 0.0), (0.0, sb / bb if bb else 0.0)),
               key=lambda c: sum((c[0] * a + c[1] * b - 1) ** 2 for a, b in rows))


class MachineFileError(ValueError):
    """A machine file that cannot be used: the report says why in one line and exits 2."""


def read_machine_file(path):
    """A machine file (reports/machines/*.json): how many ranks of each backend a node holds, how many network
    adapters they share, and per backend the latency and bandwidth of an exchange and an allreduce between
    nodes, with the source of those figures. Checked here, so that a wrong one is one clear message."""
    path = Path(path)
    try:
        machine = json.loads(path.read_text())
    except FileNotFoundError:
        raise MachineFileError(f"{path}: no such machine file") from None
    except (OSError, ValueError) as error:
        raise MachineFileError(f"{path}: not a valid machine file ({error})") from None

    def positive(value, where):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise MachineFileError(f"{path}: {where} must be a positive number, not {value!r}")
        return value

    for key in ("name", "source", "ranks_per_node", "adapters_per_node", "between_nodes"):
        if not isinstance(machine, dict) or key not in machine:
            raise MachineFileError(f"{path}: a machine file needs \"{key}\" (see reports/machines/README.md)")
    positive(machine["adapters_per_node"], "adapters_per_node")
    for backend in ("mpi", "nccl"):
        positive((machine["ranks_per_node"] or {}).get(backend), f"ranks_per_node.{backend}")
        for operation in OPERATIONS:
            link = ((machine["between_nodes"] or {}).get(backend) or {}).get(operation) or {}
            positive(link.get("latency_s"), f"between_nodes.{backend}.{operation}.latency_s")
            positive(link.get("bytes_per_s"), f"between_nodes.{backend}.{operation}.bytes_per_s")
    machine["path"] = path
    return machine


def machine_link(machine, backend):
    """{operation: (alpha, beta)} between nodes from a machine file."""
    return {operation: (link["latency_s"], 1.0 / link["bytes_per_s"])
            for operation, link in machine["between_nodes"][backend].items() if operation in OPERATIONS}


def link_cost(link, pattern, ranks, volume, backend):
    """Seconds of one message of `volume` bytes among `ranks` ranks of `backend` over one kind of link. An
    exchange and an allreduce take their own alpha and beta; a reduce its own where the link has them (a probe
    that timed one, inside a node), else it is point-to-point messages in a tree at the exchange's."""
    if pattern == "reduce" and "reduce" in link:
        alpha, beta = link["reduce"]
        steps, share = reduce_terms(backend, ranks)
    else:
        alpha, beta = link["allreduce" if pattern == "allreduce" else "exchange"]
        steps, share = pattern_terms(pattern, ranks)
    return alpha * steps + beta * volume * share


def message_cost(network, pattern, ranks, volume):
    """Seconds of one message of `volume` bytes among `ranks` ranks, `per_node` to a node. On one node, its
    links only. On several:
    - an exchange: the pairs at the nodes' edges cross between nodes, and every pair waits for them;
    - a reduce: a tree inside each node, then one between the nodes;
    - an allreduce: the ranks of a node reduce-scatter among themselves, each allreduces its 1/per_node of
      the bytes with its peers on the other nodes (sharing the node's adapters), then they allgather."""
    here = min(ranks, network["per_node"])
    nodes = math.ceil(ranks / network["per_node"])
    inside, between, backend = network["inside"], network["between"], network["backend"]
    if nodes == 1:
        return link_cost(inside, pattern, ranks, volume, backend)
    if pattern == "exchange":
        return link_cost(between, pattern, ranks, volume, backend)
    if pattern == "reduce":
        return link_cost(inside, pattern, here, volume, backend) + link_cost(between, pattern, nodes, volume, backend)
    crowding = max(1.0, here / network["adapters"])  # ranks a node's adapter carries at once
    return (link_cost(inside, pattern, here, volume, backend)
            + link_cost(between, pattern, nodes, volume / here * crowding, backend))


def communication_time(messages, network, ranks):
    """Seconds one compute() spends sending `messages` among `ranks` ranks."""
    return sum(m["rounds"] * message_cost(network, m["pattern"], ranks, m["bytes"]) for m in messages)


def fit_network(context, machine=None):
    """{backend: network} from the run's probe of its network, where a network is {"backend": its name,
    "inside": link, "between": link, "per_node": ranks a node, "adapters": adapters a node, "ranks": probed
    counts, "machines": most machines probed, "inside_from": words, "between_from": words}, each link
    {operation: (alpha, beta)} ("reduce" too inside a node, where the probe timed one).
    Probes on one machine fit the links inside a node; probes across machines (the exchange's edge pairs
    cross between nodes) the links between them. Where the run had one machine, the links between nodes,
    the ranks a node holds and its adapters come from `machine` (a machine file read by read_machine_file);
    without one, none of that is known: only the one-node model. {} where the run has no probe."""
    grouped = {}
    for probe in context.get("communication") or []:
        grouped.setdefault(probe["backend"], []).append(probe)
    networks = {}
    for backend, probes in grouped.items():
        alone = [p for p in probes if p.get("machines", 1) == 1]
        spread = [p for p in probes if p.get("machines", 1) > 1]
        inside = fit_links(alone, lambda p: (p["ranks"], None)) if alone else None
        network = {"backend": backend, "ranks": sorted(p["ranks"] for p in probes),
                   "machines": max(p.get("machines", 1) for p in probes)}
        if spread:
            # The layout measured: the ranks a node held on the most machines probed.
            widest = max(spread, key=lambda p: p["machines"])
            per_node = math.ceil(widest["ranks"] / widest["machines"])
            network.update(per_node=per_node, adapters=per_node, inside=inside)
            between = fit_links(spread, lambda p: (p["ranks"], network), between=True)
            network.update(between=between, inside=inside or between,
                           between_from=f"fitted to {counts_text(spread)} ranks on "
                                        f"{' and '.join(sorted({str(p['machines']) for p in spread}))} machines")
        elif machine is not None and inside:
            network.update(inside=inside, between=machine_link(machine, backend),
                           per_node=machine["ranks_per_node"][backend], adapters=machine["adapters_per_node"],
                           between_from=f"{machine['path'].name}, not measured in this run: {machine['name']}")
        elif inside:
            network.update(inside=inside, between=inside, per_node=math.inf, adapters=math.inf,
                           between_from="none: every rank on one node")
        else:
            continue
        network["inside_from"] = (f"fitted to {counts_text(alone)} ranks on 1 machine" if alone
                                  else "not measured: taken as the link between nodes")
        if network["inside"] and network["between"]:
            networks[backend] = network
    return networks


def counts_text(probes):
    return " and ".join(str(p) for p in sorted({p["ranks"] for p in probes}))


def fit_links(probes, layout, between=False):
    """{operation: (alpha, beta)} fitted to probes. Between nodes, an allreduce's sample is what is left of
    its time once the part inside the node (by the fitted inside link) is taken out. A reduce is fitted
    inside a node only, where the probes timed one: between nodes it takes the exchange's link (link_cost),
    as a machine file has no reduce."""
    samples = {operation: [] for operation in OPERATIONS + ("reduce",)}
    for probe in probes:
        ranks, network = layout(probe)
        if not between:
            for size, seconds in probe.get("reduce", []):
                steps, share = reduce_terms(probe["backend"], ranks)
                samples["reduce"].append((steps, share * size, seconds))
        for operation in OPERATIONS:
            for size, seconds in probe[operation]:
                if not between:
                    steps, share = pattern_terms(operation, ranks)
                    samples[operation].append((steps, share * size, seconds))
                elif operation == "exchange":
                    samples[operation].append((1.0, size, seconds))
                else:
                    here, nodes = network["per_node"], math.ceil(ranks / network["per_node"])
                    inside = (link_cost(network["inside"], operation, here, size, network["backend"])
                              if network["inside"] else 0.0)
                    steps, share = pattern_terms(operation, nodes)
                    if seconds > inside:
                        samples[operation].append((steps, share * size / here, seconds - inside))
    if not all(samples[operation] for operation in OPERATIONS):
        return None
    return {operation: fit_cost(points) for operation, points in samples.items() if points}


def predict(p0, t0, messages, network, counts, kind):
    """{ranks: (time, speed-up, efficiency)} at each count, from the compute-only time t0 on the fewest ranks
    p0: strong, T(p) = W / p + C(p) with W = p0 (T0 - C(p0)), each rank's share of the work; weak,
    T(p) = T0 - C(p0) + C(p), each rank's share the same."""
    work = max(0.0, t0 - communication_time(messages, network, p0))
    out = {}
    for p in counts:
        time = (work * p0 / p if kind == "strong" else work) + communication_time(messages, network, p)
        speedup = t0 / time * (p / p0 if kind == "weak" else 1)
        out[p] = (time, speedup, speedup * p0 / p)
    return out


def layout_text(network, ranks, unit):
    """How `ranks` ranks sit on nodes in the model: "64 GPUs (16 nodes of 4)"."""
    if network["per_node"] == math.inf or ranks <= network["per_node"]:
        return f"{ranks} {unit}"
    return f"{ranks} {unit} ({math.ceil(ranks / network['per_node'])} nodes of {network['per_node']})"
