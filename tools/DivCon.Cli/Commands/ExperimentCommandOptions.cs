using System.CommandLine;
using DivCon.Samples;

namespace DivCon.Cli.Commands;

/// <summary>The options <c>scalability</c>, <c>granularity</c> and <c>phases</c> share; each command adds its own.</summary>
internal sealed class ExperimentCommandOptions
{
    public Option<string[]> Programs { get; } = new("--programs")
    {
        Description = $"Sample programs, comma- or space-separated (default: all). Known: {string.Join(", ", SampleCatalog.Names)}.",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => SampleCatalog.Names.ToArray(),
    };

    public Option<string> Size { get; } = new("--size")
    {
        Description = "Problem size: small, medium or thesis.",
        DefaultValueFactory = _ => "medium",
    };

    public Option<int> Runs { get; }

    public Option<int> Warmup { get; } = new("--warmup")
    {
        Description = "Unrecorded runs before each measured point's runs.",
        DefaultValueFactory = _ => 1,
    };

    public Option<int?> Cores { get; } = new("--cores")
    {
        Description = "Use the first N processors of the process's affinity mask (default: all of them).",
    };

    public Option<int> Seed { get; } = new("--seed")
    {
        Description = "Seeds the programs' inputs.",
        DefaultValueFactory = _ => 1,
    };

    public Option<string> Plots { get; } = PlotOption.Create();

    public Option<string> Out { get; }

    public ExperimentCommandOptions(string defaultOut, int defaultRuns)
    {
        Out = new Option<string>("--out")
        {
            Description = "Folder for the result files (created if missing).",
            DefaultValueFactory = _ => defaultOut,
        };
        Runs = new Option<int>("--runs")
        {
            Description = "Recorded runs per measured point (mean and 99 % interval over them).",
            DefaultValueFactory = _ => defaultRuns,
        };
    }

    public void AddTo(Command command)
    {
        command.Options.Add(Programs);
        command.Options.Add(Size);
        command.Options.Add(Runs);
        command.Options.Add(Warmup);
        command.Options.Add(Cores);
        command.Options.Add(Seed);
        command.Options.Add(Out);
        command.Options.Add(Plots);
    }
}
