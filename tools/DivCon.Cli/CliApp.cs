using System.CommandLine;
using DivCon.Cli.Commands;
using DivCon.Cli.Programs;

namespace DivCon.Cli;

/// <summary>
/// The <c>divcon</c> command line: builds the command tree and runs it. Every command lives in its own file and
/// is registered in <see cref="CreateRootCommand"/>.
/// </summary>
public static class CliApp
{
    /// <summary>Exit code for a user's mistake (bad option, unknown name, unwritable folder).</summary>
    public const int UsageError = 2;

    /// <summary>Builds the root command with every subcommand; <paramref name="self"/> is how <c>--repeat N</c> starts its child processes.</summary>
    internal static RootCommand CreateRootCommand(CliSelf? self)
    {
        // Where MultiProgramScheduler schemes leave their allocation timelines for the plots and traces beside the results
        // (one per invocation; the scheme wiring adds to it when a scheme's run ends).
        var timelines = new System.Collections.Concurrent.ConcurrentQueue<Harness.Plots.SchemeTimeline>();
        var schemes = Harness.Schemes.BuiltInSchemes.CreateRegistry(timelines);
        return new RootCommand(
            "DivCon: run several task-parallel programs on one multicore machine and measure how each scheduling scheme divides the cores.")
        {
            TopologyCommand.Create(),
            SimulateCommand.Create(),
            PlanCommand.Create(),
            CyclicOptions.Cyclic(SamplePrograms.Workload, schemes, timelines, self),
            CyclicOptions.Symmetric(SamplePrograms.Workload, schemes, timelines, self),
            IsolatedCommands.Scalability(),
            IsolatedCommands.Granularity(),
            IsolatedCommands.Phases(),
            PlotCommand.Create(),
            AnalyzeCommand.Create(),
            FactoredCommand.Create(SamplePrograms.Factored),
            CompareStealingCommand.Create(SamplePrograms.Workload),
            OpenCommand.Create(SamplePrograms.Skeletons),
        };
    }

    /// <summary>
    /// Parses and runs <paramref name="args"/>, writing to the given writers and starting child processes with
    /// <paramref name="self"/> (null: <c>--repeat</c> above 1 is refused). Parse errors are printed one per line on
    /// <paramref name="error"/> and give exit code <see cref="UsageError"/>, without a stack trace.
    /// </summary>
    internal static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, CliSelf? self = null, CancellationToken cancellationToken = default)
    {
        var root = CreateRootCommand(self);
        var parse = root.Parse(args);
        var config = new InvocationConfiguration { Output = output, Error = error };
        if (parse.Errors.Count > 0)
        {
            foreach (var e in parse.Errors)
            {
                await error.WriteLineAsync($"divcon: {e.Message}");
            }

            await error.WriteLineAsync("Run 'divcon --help' for usage.");
            return UsageError;
        }

        return await parse.InvokeAsync(config, cancellationToken);
    }
}
