#!/bin/sh
# slurm-cluster.sh: a private Slurm cluster of several nodes on this one
# machine, to try interloper sweep --slurm (and its tests) without a real
# cluster.  Each node is a slurmd of its own hostname (a UTS namespace,
# unshare -u); the controller, the nodes and munge talk over loopback
# (127.0.0.1, free ports) and keep everything in DIR: a munge key and
# socket, slurm.conf, state, spools, logs, and the daemons' process ids.
# Nothing of the machine's own Slurm or munge is used or changed.  Needs
# root and Debian's slurm-wlm and munge.
#
#   sh scripts/slurm-cluster.sh start DIR [NODES]  start munged, slurmctld
#                                                  and NODES slurmd (n1,
#                                                  n2, ...; default 2)
#   . DIR/env                                      SLURM_CONF for sbatch,
#                                                  squeue, sinfo...
#   sh scripts/slurm-cluster.sh kill DIR NODE      the node dies: every
#                                                  process of its namespace
#                                                  (slurmd, its jobs) killed
#   sh scripts/slurm-cluster.sh revive DIR NODE    its slurmd started again
#   sh scripts/slurm-cluster.sh stop DIR           every process started
#                                                  here stopped, by pid;
#                                                  DIR (logs) is left
set -eu

usage() {
	cat <<EOF
usage: sh scripts/slurm-cluster.sh start DIR [NODES]
       sh scripts/slurm-cluster.sh kill DIR NODE
       sh scripts/slurm-cluster.sh revive DIR NODE
       sh scripts/slurm-cluster.sh stop DIR
A private Slurm cluster of NODES nodes (default 2) on this machine; then
. DIR/env to use it.  Root, slurm-wlm and munge are needed.
EOF
}

die() {
	echo "slurm-cluster: $*" >&2
	exit 1
}

# wait_for WHAT CMD...: until CMD succeeds, 30 s at most
# (sh has no local variables: each function's are its own by name)
wait_for() {
	_w_what=$1
	shift
	_w_i=0
	until "$@" >/dev/null 2>&1; do
		_w_i=$((_w_i + 1))
		[ $_w_i -lt 300 ] || die "$_w_what did not come within 30 s (see the logs in $D)"
		sleep 0.1
	done
}

port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The UTS namespace of process $1, as the kernel names it.
uts() {
	readlink "/proc/$1/ns/uts" 2>/dev/null
}

# process $1 is in a UTS namespace other than ours
own_ns() {
	[ -n "$(uts "$1")" ] && [ "$(uts "$1")" != "$(uts $$)" ]
}

# slurmd of node $1, in a UTS namespace of its own named $1; its pid and
# namespace appended to DIR/pids
node_start() {
	mkdir -p "$D/spool/$1"
	# shellcheck disable=SC2016 # the inner shell's arguments
	unshare -u sh -c 'hostname "$1" && exec slurmd -D -f "$2"' sh "$1" "$D/slurm.conf" \
		>>"$D/slurmd.$1.out" 2>&1 &
	_n_pid=$!
	wait_for "the namespace of node $1" own_ns "$_n_pid"
	echo "slurmd $1 $_n_pid $(uts "$_n_pid")" >>"$D/pids"
}

# Every process of node $1's namespace, killed (the node "dies"): all
# stopped first, twice (what forked meanwhile), so that none sees another
# die and reacts, as none would on a machine that lost its power.
node_kill() {
	ns=$(awk -v n="$1" '$1 == "slurmd" && $2 == n { ns = $4 } END { print ns }' "$D/pids")
	[ -n "$ns" ] || die "no node $1 in $D/pids"
	for _k_sig in STOP STOP KILL; do
		for _k_p in /proc/[0-9]*; do
			_k_p=${_k_p#/proc/}
			[ "$(uts "$_k_p")" != "$ns" ] || kill -s $_k_sig "$_k_p" 2>/dev/null || true
		done
	done
}

idle_nodes() {
	[ "$(SLURM_CONF=$D/slurm.conf sinfo -h -o '%T %D' 2>/dev/null | awk '$1 == "idle" { n += $2 } END { print n + 0 }')" -ge "$1" ]
}

[ $# -ge 2 ] || {
	usage >&2
	exit 1
}
cmd=$1
D=$2
case $D in
/*) ;;
*) D=$PWD/$D ;;
esac

case $cmd in
start)
	n=${3:-2}
	[ "$(id -u)" -eq 0 ] || die "the daemons run as root (slurmd must); run as root"
	for c in munged slurmctld slurmd sinfo unshare python3; do
		command -v "$c" >/dev/null 2>&1 || die "$c is missing (Debian packages slurm-wlm, munge, util-linux, python3)"
	done
	[ ! -e "$D/pids" ] || die "$D/pids exists: a cluster runs there (stop it first)"
	mkdir -p "$D"
	mkdir -m 755 "$D/munge"
	mkdir -m 700 "$D/state" "$D/spool"
	: >"$D/pids"
	dd if=/dev/urandom of="$D/munge/key" bs=1024 count=1 2>/dev/null
	chmod 400 "$D/munge/key"
	munged -F --force --socket="$D/munge/sock" --key-file="$D/munge/key" \
		--pid-file="$D/munge/pid" --log-file="$D/munge/log" --seed-file="$D/munge/seed" \
		>"$D/munged.out" 2>&1 &
	echo "munged - $! -" >>"$D/pids"
	nodes=''
	i=1
	while [ $i -le "$n" ]; do
		nodes="$nodes${nodes:+,}n$i"
		i=$((i + 1))
	done
	{
		cat <<EOF
# a private cluster of slurm-cluster.sh: every node is this machine
ClusterName=il$$
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(port)
AuthType=auth/munge
AuthInfo=socket=$D/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.%n.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/jobcomp.txt
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
# a dead node is said within seconds, comes back when its slurmd does,
# and its jobs are not requeued by Slurm: interloper sweep resubmits
SlurmdTimeout=3
MessageTimeout=2
ReturnToService=2
JobRequeue=0
EOF
		i=1
		while [ $i -le "$n" ]; do
			echo "NodeName=n$i NodeAddr=127.0.0.1 Port=$(port) CPUs=1 State=UNKNOWN"
			i=$((i + 1))
		done
		echo "PartitionName=il Nodes=$nodes Default=YES MaxTime=INFINITE State=UP"
	} >"$D/slurm.conf"
	printf 'SLURM_CONF=%s/slurm.conf\nexport SLURM_CONF\n' "$D" >"$D/env"
	wait_for munged test -S "$D/munge/sock"
	slurmctld -D -f "$D/slurm.conf" >"$D/slurmctld.out" 2>&1 &
	echo "slurmctld - $! -" >>"$D/pids"
	i=1
	while [ $i -le "$n" ]; do
		node_start "n$i"
		i=$((i + 1))
	done
	wait_for "$n idle nodes" idle_nodes "$n"
	echo "slurm-cluster: $n nodes ($nodes) up; . $D/env to use them, sh $0 stop $D to stop"
	;;
kill)
	[ $# -eq 3 ] || die "kill needs DIR and NODE"
	node_kill "$3"
	;;
revive)
	[ $# -eq 3 ] || die "revive needs DIR and NODE"
	node_kill "$3"
	node_start "$3"
	;;
stop)
	[ -f "$D/pids" ] || die "no cluster in $D ($D/pids is missing)"
	# the nodes first (their jobs with them), then the controller and munge
	awk '$1 == "slurmd" { print $2 }' "$D/pids" | sort -u >"$D/nodes"
	while read -r node; do
		node_kill "$node"
	done <"$D/nodes"
	awk '$1 != "slurmd" { print $3 }' "$D/pids" >"$D/daemons"
	while read -r p; do
		kill "$p" 2>/dev/null || true
	done <"$D/daemons"
	while read -r p; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null || true
	done <"$D/daemons"
	mv "$D/pids" "$D/pids.stopped"
	;;
*)
	usage >&2
	exit 1
	;;
esac
