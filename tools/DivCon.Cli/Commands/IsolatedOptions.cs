using System.CommandLine;
using DivCon.Cli.Programs;
using DivCon.Harness.Experiments;
using DivCon.Harness.Progress;
using DivCon.Harness.Programs;
using DivCon.Harness.Reporting;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// The options <c>scalability</c>, <c>granularity</c> and <c>phases</c> share (each command adds its own), and how each
/// runs its experiment on the sample programs and writes its result kind.
/// </summary>
internal sealed class IsolatedOptions
{
    private readonly Option<string[]> _programs = CommandInput.Programs(
        $"Sample programs, comma- or space-separated (default: all). Known: {SamplePrograms.Skeletons.Names}.", SamplePrograms.Skeletons.All.Select(e => e.Name).ToArray());

    private readonly Option<string> _size = CommandInput.Size();
    private readonly Option<int> _runs;
    private readonly Option<int> _warmup = CommandInput.Warmup("Unrecorded runs before each measured point's runs.");
    private readonly Option<int?> _cores = CommandInput.Cores();
    private readonly Option<bool> _overBudget = CommandInput.OverBudget();
    private readonly Option<int> _seed = CommandInput.Seed("Seeds the programs' inputs.");
    private readonly Option<string> _plots = CommandInput.Plots();
    private readonly Option<string> _out;

    public IsolatedOptions(Command command, string defaultOut, int defaultRuns)
    {
        _out = CommandInput.Out(defaultOut);
        _runs = CommandInput.Runs("Recorded runs per measured point (mean and 99 % interval over them).", defaultRuns);
        foreach (Option option in new Option[] { _programs, _size, _runs, _warmup, _cores, _overBudget, _seed, _out, _plots })
        {
            command.Options.Add(option);
        }
    }

    /// <summary>Checks the shared options, then runs <paramref name="run"/> and writes its result as <paramref name="kind"/> says.</summary>
    public Task<int> RunAsync<T>(ParseResult parse, List<string> problems, ResultKind<T> kind,
        Func<ExperimentSettings, ProgramCatalog, IRunProgress, CancellationToken, Task<T>> run, CancellationToken cancellationToken)
        where T : ExperimentFile
    {
        IReadOnlyList<ProgramEntry> programs = CommandInput.ReadPrograms(parse, _programs, SamplePrograms.Skeletons, problems);
        WorkloadSize size = CommandInput.ReadSize(parse, _size, problems);
        int runs = CommandInput.AtLeast(parse, _runs, 1, problems);
        int warmup = CommandInput.AtLeast(parse, _warmup, 0, problems);
        CpuBudget budget = CpuBudget.Detect(); // one reading: the option checks, the schedulers and the result's machine record
        var notes = new List<string>();
        IReadOnlyList<int> processors = CommandInput.ReadCores(parse, _cores, budget, parse.GetValue(_overBudget), problems, notes);
        bool png = CommandInput.ReadPlots(parse, _plots, problems);
        string outFolder = CommandInput.ReadOut(parse, _out, problems);
        var settings = new ExperimentSettings(programs.Select(p => p.Name).ToArray(), size, runs, warmup, processors, parse.GetValue(_seed), TimeSpan.FromMinutes(10))
        {
            Budget = budget,
        };
        return ExperimentRunner.RunAsync(parse, kind.Names[0], problems, outFolder,
            (progress, ct) => run(settings, SamplePrograms.Skeletons, progress, ct), r => kind.Files(r, png), kind.Table, cancellationToken, notes);
    }
}
