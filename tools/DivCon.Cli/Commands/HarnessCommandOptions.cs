using System.CommandLine;

namespace DivCon.Cli.Commands;

/// <summary>The options <c>cyclic</c> and <c>symmetric</c> share; each command adds its own workload options.</summary>
internal sealed class HarnessCommandOptions
{
    public const string DefaultDuration = "10s";
    public const int DefaultSpRuns = 5;

    public Option<string[]> Schemes { get; } = new("--schemes")
    {
        Description = "Schemes to compare, comma- or space-separated, or 'all' (every scheme this build can run).",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => ["all"],
    };

    public Option<string> Duration { get; } = new("--duration")
    {
        Description = "Time limit of each scheme's multiprogram phase, e.g. 10s, 90s, 2m, 1m30s. The whole run takes about "
            + "schemes × (duration + 0.5 s) + C^SP (programs × (warm-up + sp-runs) runs alone) + one sequential run per program.",
        DefaultValueFactory = _ => DefaultDuration,
    };

    public Option<int> SpRuns { get; } = new("--sp-runs")
    {
        Description = "Single-program runs per program for C^SP (the thesis uses 5).",
        DefaultValueFactory = _ => DefaultSpRuns,
    };

    public Option<int> Warmup { get; } = new("--warmup")
    {
        Description = "Unrecorded runs per program before the C^SP runs.",
        DefaultValueFactory = _ => 1,
    };

    public Option<int> Repeat { get; } = new("--repeat")
    {
        Description = "Repetitions of the whole test; scheme-level intervals and significance need at least 2.",
        DefaultValueFactory = _ => 1,
    };

    public Option<string> Size { get; } = new("--size")
    {
        Description = "Problem size: small, medium or thesis.",
        DefaultValueFactory = _ => "medium",
    };

    public Option<int?> Cores { get; } = new("--cores")
    {
        Description = "Use the first N processors of the process's affinity mask (default: all of them).",
    };

    public Option<string> SpScheme { get; } = new("--sp-scheme")
    {
        Description = "Scheme that measures C^SP (default: oversubscribed-free, i.e. one work-stealing scheduler with a worker per core, the program alone).",
    };

    public Option<int> Seed { get; } = new("--seed")
    {
        Description = "Seeds the programs' inputs and the order of the schemes.",
        DefaultValueFactory = _ => 1,
    };

    public Option<string> Plots { get; } = PlotOption.Create();

    public Option<string> Out { get; }

    public HarnessCommandOptions(string defaultOut)
    {
        Out = new Option<string>("--out")
        {
            Description = "Folder for the result files (created if missing).",
            DefaultValueFactory = _ => defaultOut,
        };
    }

    public void AddTo(Command command)
    {
        command.Options.Add(Schemes);
        command.Options.Add(Duration);
        command.Options.Add(SpRuns);
        command.Options.Add(Warmup);
        command.Options.Add(Repeat);
        command.Options.Add(Size);
        command.Options.Add(Cores);
        command.Options.Add(SpScheme);
        command.Options.Add(Out);
        command.Options.Add(Seed);
        command.Options.Add(Plots);
    }
}
