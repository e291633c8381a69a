#!/bin/bash
# One host model, checked on the source tree (docs/architecture.md, "The host a window shows"):
# - widgets/ and app/dmtune/: no device-mapper backend of their own (LibDevmapperBackend: HostContext's
#   deviceMapper() is the window's), no euid check (HostContext::actsAsRoot(), processIsRoot()), no
#   OperationEnvironment filled by hand (HostContext::environment(), TuningSession::operationEnvironment()).
# - the OperationService's callers (widgets/, app/dmtune/, core/): no answer told apart by a string tag; each call
#   carries its continuation.
# - widgets/ and app/dmtune/: no thread of their own (new QThread, QThread::create, a QThread member or variable)
#   and no BlockingQueuedConnection: a long-running action is a core operation started through the
#   OperationService (start(): a run handle, progress events, the result), run on a thread the core owns.
# - widgets/ and app/: fio is never run by a shell (a WorkloadSession of its own, the startWorkload side door):
#   workload.start is started through an OperationService, as experiment.sweep is.
# - app/dmtune/: no local/remote branch. The window wires its host's session (core/host/hostsession.h) and never
#   asks which kind it is: no remote flag or accessor, no remote part of its own (sampler, runner, latency stream,
#   the agent's connection), no cast to a kind of session, no RemoteHost state. It makes a session (the
#   constructors, File > Connect) and that is all it knows of the kinds.
# - widgets/: no widget reaches into a session of a kind (a cast, a RemoteHost's state), talks to an agent's
#   connection or makes a remote part itself; what a host can do comes from its session (its workloads:
#   HostSession::newWorkloadRuns, one run path for either kind).
# Prints each violation as file:line: text and exits 1 when there is one.
set -u
src=${1:?usage: check_host_model.sh SOURCE_DIR}
cd "$src" || exit 2
found=0
report() { # pattern, dirs...
    local pattern=$1; shift
    local hits
    hits=$(grep -rnE --include='*.cpp' --include='*.h' "$pattern" "$@" 2>/dev/null | grep -vE '^[^:]+:[0-9]+:\s*//')
    if [ -n "$hits" ]; then
        echo "$hits"
        found=1
    fi
}
shells=(widgets app/dmtune)
report 'LibDevmapperBackend|geteuid\(' "${shells[@]}"
report 'OperationEnvironment\s+\w+\s*;|OperationEnvironment\s+\w+\s*\{\s*\}|\benv\.sysfs\s*=' "${shells[@]}"
# The tags the service's callers used to parse, and their shapes: a tag parameter, parsed or compared.
report 'const QString &tag\b|\btag\.(mid|startsWith|endsWith)\(|\btag\s*[!=]=|[A-Za-z]Tag\(\)|"(keep|workload|tree-action|editor-reload):"' \
    "${shells[@]}" core
# A thread made by a shell: created (new, QThread::create), or held (a QThread or QThread* member or variable).
report '\bnew\s+QThread\b|QThread::create\b|\bQThread\s*\*?\s*[A-Za-z_]\w*\s*(;|=|\{|\()|BlockingQueuedConnection' \
    "${shells[@]}"
report '\bWorkloadSession\b|\bstartWorkload\(' widgets app
report '\bm_remote\b|\bisRemote\(|\bremote(Host|Sampler|Operations)\(|RemoteSampler|RemoteOperationRunner|RemoteLatencyStream|->client\(\)|->agent\(\)|RemoteHost::|(qobject|dynamic|static)_cast<\s*(const\s+)?(Local|Remote)HostSession' \
    app/dmtune
report '(qobject|dynamic|static)_cast<\s*(const\s+)?(Local|Remote)HostSession|new\s+(RemoteSampler|RemoteOperationRunner|RemoteLatencyStream|RemoteMapStream|RemoteWorkload)\b|\bAgentClient\b|->agent\(\)' \
    widgets
if [ $found = 0 ]; then
    echo "host model: no widget makes its own environment, backend, euid check or thread; no answer by tag; no shell runs fio itself; the window never asks which host it has"
fi
exit $found
