#include "JobReaper.h"

#include "common/ShellQuote.h"
#include "launch/LaunchPlan.h"

namespace TrainDesk::JobReaper {

QString pidVariable() { return QStringLiteral("TRAINDESK_REAPER_PID"); }

QString program()
{
    // Arguments: the marker variable's name, the job's uuid, grace seconds, the job directory,
    // the command. See JobReaper.h.
    return QStringLiteral(R"perl(use strict; use warnings; use POSIX (); use Config; use Time::HiRes qw(time);
my ($marker, $uuid, $grace, $dir, @cmd) = @ARGV;
sub put { my ($f, $t) = @_; open(my $h, '>', "$f.tmp") or return 0; print $h $t; close($h) or return 0; rename("$f.tmp", $f) }
my %nr = (x86_64 => 157, aarch64 => 167, i386 => 172, i686 => 172, arm => 172, armv7l => 172, ppc64 => 171,
          ppc64le => 171, s390x => 172, riscv64 => 167, loongarch64 => 167);
my ($arch) = $Config{archname} =~ /^([^-]+)/;
if (!defined $nr{$arch} || syscall($nr{$arch}, 36, 1, 0, 0, 0) != 0) { put("$dir/tracking", "marker\n"); $ENV{$marker} = $uuid; exec(@cmd) or exit 127 }
my ($cg, $home);
if (open(my $mi, '<', '/proc/self/mountinfo')) { while (<$mi>) { my @f = split; if (/ - cgroup2 /) { $home = $f[4]; last } } }
if (defined $home && open(my $pc, '<', '/proc/self/cgroup')) {
  while (<$pc>) { next unless /^0::(\S*)/; my $at = "$home$1"; $at =~ s{/+$}{};
    my $mine = "$at/traindesk-job-$uuid";
    if ((mkdir($mine) || -d $mine) && open(my $p, '>', "$mine/cgroup.procs")) { print $p "$$\n"; $cg = [$mine, $at] if close($p) }
    rmdir($mine) unless $cg }
}
put("$dir/tracking", $cg ? "reaper cgroup $cg->[0]\n" : "reaper\n");
my ($term, $kill) = (0, 0);
$SIG{TERM} = $SIG{HUP} = $SIG{INT} = sub { $term = 1 }; $SIG{USR1} = sub { $kill = 1 };
my $child = fork();
if (!defined $child) { exit 111 }
if ($child == 0) { $SIG{$_} = 'DEFAULT' for qw(TERM HUP INT USR1); $ENV{TRAINDESK_REAPER_PID} = getppid(); $ENV{$marker} = $uuid; exec(@cmd) or POSIX::_exit(127) }
# Out of the job's cgroup again, so that cgroup.kill there ends the job and not the reaper.
if ($cg) { my $back; $cg = undef unless open($back, '>', "$cg->[1]/cgroup.procs") && print($back "$$\n") && close($back) }
sub tree {
  my (%kids, @all);
  for my $s (glob('/proc/[0-9]*/stat')) { open(my $h, '<', $s) or next; my $t = <$h> // next;
    my ($pid) = $s =~ m{/proc/(\d+)/}; my ($ppid) = $t =~ /\)\s+\S+\s+(\d+)/ or next; push @{$kids{$ppid}}, $pid }
  my @todo = ($$);
  while (@todo) { my $p = shift @todo; for my $k (@{$kids{$p} || []}) { push @all, $k; push @todo, $k } }
  if ($cg && open(my $h, '<', "$cg->[0]/cgroup.procs")) { while (<$h>) { chomp; push @all, $_ if $_ != $$ } }
  my %seen; grep { !$seen{$_}++ } @all
}
my ($status, $deadline);
while (1) {
  while ((my $p = waitpid(-1, POSIX::WNOHANG())) > 0) { $status = $? if $p == $child }
  if ($term || $kill || defined $status) {
    my @left = tree();
    last if !@left && defined $status;
    if (!defined $deadline) { $deadline = time() + $grace; kill('TERM', @left) }
    if ($kill || time() >= $deadline) {
      if ($cg && -e "$cg->[0]/cgroup.kill" && open(my $k, '>', "$cg->[0]/cgroup.kill")) { print $k "1\n"; close($k) }
      kill('KILL', @left);
    }
  }
  select(undef, undef, undef, defined $status || $term ? 0.05 : 0.25);
}
rmdir($cg->[0]) if $cg;
my $code = ($status & 127) ? 128 + ($status & 127) : $status >> 8;
put("$dir/exit_code", sprintf("%-15s\n", $code)) unless -e "$dir/exit_code";
exit($code);
)perl");
}

QString launchText(const QString &jobUuid, const QString &jobDir, const QString &scriptPath, int graceSeconds)
{
    // The reaper itself is not marked: the clean-up (StrayProcessCleanup) of marked processes
    // must not kill it before it has ended what it holds that is not marked. It marks the
    // script it starts.
    return QStringLiteral("if command -v perl >/dev/null 2>&1; then\n"
                          "  exec env -u %1 perl -e %2 %1 %3 %4 %5 /bin/sh %6\n"
                          "fi\n")
        .arg(jobMarkerVariable(), shellQuote(program()), shellQuote(jobUuid), QString::number(graceSeconds),
             shellQuote(jobDir), shellQuote(scriptPath));
}

} // namespace TrainDesk::JobReaper
