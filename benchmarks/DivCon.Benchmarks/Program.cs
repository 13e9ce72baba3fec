using BenchmarkDotNet.Running;
using DivCon.Benchmarks.Multiprogramming;
using DivCon.Benchmarks.Scheduling;

namespace DivCon.Benchmarks;

/// <summary>
/// Entry point: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*'</c> (BenchmarkDotNet), or
/// <c>-- paired-spawn-tree</c> for the interleaved spawn-tree comparison (<see cref="PairedSpawnTree"/>), or
/// <c>-- idle-cost</c> for the CPU an idle scheduler uses (<see cref="IdleCost"/>), or <c>-- hand-over-latency</c> for move,
/// recall and wake-up latency timed inside the task (<see cref="HandOverLatency"/>), or <c>-- loop-move-latency</c> for how
/// long a move waits on plain Parallel.For against DivCon's chunked loops (<see cref="LoopMoveLatency"/>), or
/// <c>-- starved-trigger-cost</c> for what the starved-program trigger costs busy programs (<see cref="StarvedTriggerCost"/>).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == PairedSpawnTree.Command)
        {
            return PairedSpawnTree.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == IdleCost.Command)
        {
            return IdleCost.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == HandOverLatency.Command)
        {
            return HandOverLatency.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == LoopMoveLatency.Command)
        {
            return LoopMoveLatency.Run(args[1..]);
        }

        if (args.Length > 0 && args[0] == StarvedTriggerCost.Command)
        {
            return StarvedTriggerCost.Run(args[1..]);
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
