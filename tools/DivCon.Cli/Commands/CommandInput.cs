using System.CommandLine;
using System.Globalization;
using DivCon.Harness.Programs;
using DivCon.Metrics.Results;
using DivCon.Scheduling;

namespace DivCon.Cli.Commands;

/// <summary>
/// The options the commands share and the checks of their values: each command collects every problem with its input
/// first, then <see cref="ExperimentRunner"/> reports them all, one line each, and exits with <see cref="CliApp.UsageError"/>.
/// </summary>
internal static class CommandInput
{
    /// <summary>An option with its help text and no default (its value is null or default when not given).</summary>
    public static Option<T> Declare<T>(string name, string description) => new(name) { Description = description };

    /// <summary>An option with its help text and a default, which the help shows.</summary>
    public static Option<T> Declare<T>(string name, string description, T defaultValue) =>
        new(name) { Description = description, DefaultValueFactory = _ => defaultValue };

    /// <summary>An option of several values, given after it or as one comma- or space-separated list (read with <see cref="SplitNames"/>).</summary>
    public static Option<string[]> List(string name, string description, IReadOnlyList<string>? defaults = null)
    {
        var option = new Option<string[]>(name) { Description = description, AllowMultipleArgumentsPerToken = true };
        if (defaults is not null)
        {
            option.DefaultValueFactory = _ => [.. defaults];
        }

        return option;
    }

    /// <summary><c>--size</c> with its default.</summary>
    public static Option<string> Size(string defaultSize = "medium", string allowed = "small, medium or thesis") =>
        Declare("--size", $"Problem size: {allowed}.", defaultSize);

    /// <summary><c>--cores N</c>: the first N processors of the affinity mask.</summary>
    public static Option<int?> Cores() => Declare<int?>("--cores",
        "Use the first N processors of the process's affinity mask, at most the CPU budget (default: the budget's processors, "
        + "every allowed one unless a cgroup CPU quota or DOTNET_PROCESSOR_COUNT allows fewer; see 'divcon topology').");

    /// <summary><c>--over-budget</c>: allow <c>--cores</c> / <c>--max-workers</c> / <c>--workers</c> above the CPU budget.</summary>
    public static Option<bool> OverBudget() => Declare<bool>("--over-budget",
        "Allow more cores or workers than the CPU budget (refused without it): the run goes ahead, a cgroup quota throttles the workers "
        + "in turns, and the throttling is reported beside the figures.");

    /// <summary><c>--out</c> with its default folder.</summary>
    public static Option<string> Out(string defaultFolder) => Declare("--out", "Folder for the result files (created if missing).", defaultFolder);

    /// <summary><c>--plots none|png</c>.</summary>
    public static Option<string> Plots() =>
        Declare("--plots", "Figures to write beside the results: png (default; each PNG with its figure model as .plot.json) or none.", "png");

    /// <summary>Names given as <c>a,b c</c>: split on commas and spaces, blanks dropped.</summary>
    public static string[] SplitNames(IEnumerable<string>? values) =>
        (values ?? []).SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToArray();

    /// <summary>
    /// What the names given to <paramref name="option"/> stand for, each value once, in order: <paramref name="read"/>
    /// gives a name's values (several for a name like 'all'), or none after adding a problem line (<see cref="Problem{T}"/>).
    /// </summary>
    public static List<T> ReadEach<T>(ParseResult parse, Option<string[]> option, Func<string, IEnumerable<T>> read) =>
        [.. SplitNames(parse.GetValue(option)).SelectMany(read).Distinct()];

    /// <summary>No value, after adding <paramref name="message"/> to <paramref name="problems"/>.</summary>
    public static T[] Problem<T>(List<string> problems, string message)
    {
        problems.Add(message);
        return [];
    }

    /// <summary>The names given, or every one of <paramref name="all"/> when none or only 'all' is; each name not in it is a problem line.</summary>
    public static string[] ReadNamesOrAll(IEnumerable<string>? values, IReadOnlyList<string> all, Func<string, string> unknown, List<string> problems)
    {
        string[] names = SplitNames(values) is { Length: > 0 } given && !(given.Length == 1 && given[0] == "all") ? given : [.. all];
        problems.AddRange(names.Where(n => !all.Contains(n)).Select(unknown));
        return names;
    }

    /// <summary>The size <paramref name="option"/> names; one of <paramref name="allowed"/> (default: every size).</summary>
    public static WorkloadSize ReadSize(ParseResult parse, Option<string> option, List<string> problems, params WorkloadSize[] allowed)
    {
        allowed = allowed.Length > 0 ? allowed : Enum.GetValues<WorkloadSize>();
        string text = parse.GetValue(option) ?? string.Empty;
        WorkloadSize? size = allowed.Cast<WorkloadSize?>().FirstOrDefault(s => string.Equals(s.ToString(), text, StringComparison.OrdinalIgnoreCase));
        problems.AddIf(size is null, $"{option.Name} '{text}' is not a size; use {string.Join(", ", allowed.Select(Name))}.");

        return size ?? allowed[0];
    }

    /// <summary>The lowercase name of a size, as files record it.</summary>
    public static string Name(WorkloadSize size) => size.ToString().ToLowerInvariant();

    /// <summary>
    /// The one parser of relative amounts: a fraction strictly between 0 and 1 written as a percentage (5%, 2.5 %) or a
    /// fraction (0.05); null with a problem line otherwise, a bare 5 included (5 % or 500 %?).
    /// </summary>
    public static double? ReadPercent(string? text, string option, List<string> problems)
    {
        string t = text?.Trim() ?? string.Empty;
        bool percent = t.EndsWith('%');
        if (double.TryParse(percent ? t[..^1].TrimEnd() : t, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double value)
            && (percent ? value / 100 : value) is var fraction && fraction > 0 && fraction < 1)
        {
            return fraction;
        }

        problems.Add($"{option} '{text}' is not a percentage between 0 and 100; write e.g. 5% or 0.05.");
        return null;
    }

    /// <summary>The value of an integer option, with a problem line when it is below <paramref name="minimum"/>.</summary>
    public static int AtLeast(ParseResult parse, Option<int> option, int minimum, List<string> problems, string? why = null)
    {
        int value = parse.GetValue(option);
        problems.AddIf(value < minimum, $"{option.Name} must be {(minimum == 0 ? "0 or more" : $"at least {minimum}")}{why}; got {value}.");

        return value;
    }

    /// <summary>
    /// One reading of the CPU budget for the whole run (the option checks, every scheduler and the result use it), and
    /// the processors <c>--cores</c> selects: the first N of the affinity mask, N at most the CPU budget unless
    /// <c>--over-budget</c> (<see cref="CheckBudget"/>, which adds the notes); by default the budget's own selection
    /// (<see cref="CpuBudget.SelectProcessors()"/>: every allowed processor, or under a quota that allows fewer, as
    /// many packed into as few cache groups as possible).
    /// </summary>
    public static (CpuBudget Budget, IReadOnlyList<int> Processors, List<string> Notes) ReadCores(
        ParseResult parse, Option<int?> option, Option<bool> overBudget, List<string> problems)
    {
        CpuBudget budget = CpuBudget.Detect();
        IReadOnlyList<int> affinity = budget.AllowedProcessors;
        int? cores = parse.GetValue(option);
        var notes = new List<string>();
        if (cores is { } c && (c <= 0 || c > affinity.Count))
        {
            problems.Add($"{option.Name} must be between 1 and {affinity.Count} (the processors this process may use); got {c}.");
            return (budget, affinity, notes);
        }

        if (cores is { } n)
        {
            CheckBudget(option.Name, n, budget, parse.GetValue(overBudget), problems, notes);
        }

        return (budget, cores is { } k ? affinity.Take(k).ToArray() : budget.SelectProcessors(), notes);
    }

    /// <summary>
    /// One reading of the CPU budget for the whole run, and the worker count <paramref name="option"/> asks for
    /// (unpinned workers: <c>--max-workers</c>, <c>--workers</c>): the budget's cores by default, at least 1 and at
    /// most <see cref="WorkStealingSchedulerOptions.MaxWorkerCount"/>, and above the budget only with
    /// <paramref name="overBudget"/> (<see cref="CheckBudget"/>, which adds the notes).
    /// </summary>
    public static (CpuBudget Budget, int Workers, List<string> Notes) ReadWorkers(ParseResult parse, Option<int?> option, Option<bool> overBudget, List<string> problems)
    {
        CpuBudget budget = CpuBudget.Detect();
        int workers = parse.GetValue(option) ?? budget.Cores;
        var notes = new List<string>();
        if (workers < 1 || workers > WorkStealingSchedulerOptions.MaxWorkerCount)
        {
            problems.Add($"{option.Name} must be between 1 and {budget.Cores} (the CPU budget; up to {WorkStealingSchedulerOptions.MaxWorkerCount} with --over-budget); got {workers}.");
        }
        else
        {
            CheckBudget(option.Name, workers, budget, parse.GetValue(overBudget), problems, notes);
        }

        return (budget, workers, notes);
    }

    /// <summary>
    /// Checks a core or worker count an option asks for against the CPU budget: above it, a problem (refused, exit 2)
    /// unless <paramref name="overBudget"/>, then a note (the run goes ahead and reports its throttling). One line each.
    /// </summary>
    public static void CheckBudget(string option, int requested, CpuBudget budget, bool overBudget, List<string> problems, List<string> notes)
    {
        ArgumentNullException.ThrowIfNull(budget);
        if (budget.CheckWorkers(requested) is not { } warning)
        {
            return;
        }

        if (overBudget)
        {
            notes.Add($"{option} {requested} with --over-budget: {warning} Throttling is reported beside the figures.");
        }
        else
        {
            problems.Add($"{option} {requested}: {warning} Use at most {budget.Cores}, or add --over-budget to run anyway.");
        }
    }

    /// <summary>True for png, false for none; otherwise a problem line.</summary>
    public static bool ReadPlots(ParseResult parse, Option<string> option, List<string> problems) =>
        ReadSwitch((parse.GetValue(option) ?? string.Empty).Trim(), option.Name, "png", "none", problems) == true;

    /// <summary>True for <paramref name="on"/>, false for <paramref name="off"/> (any case), null when not given; otherwise a problem line.</summary>
    public static bool? ReadSwitch(string? value, string option, string on, string off, List<string> problems)
    {
        string? v = value?.Trim().ToLowerInvariant();
        bool? result = v == on ? true : v == off ? false : null;
        problems.AddIf(value is not null && result is null, $"{option} '{value}' is not allowed; use {on} or {off}.");
        return result;
    }

    /// <summary>
    /// What <paramref name="read"/> reads from a file the user named, or null with its message (after
    /// <paramref name="prefix"/>) as a problem line when the file cannot be read or is not what it should be.
    /// </summary>
    public static T? Read<T>(Func<T> read, List<string> problems, string prefix = "")
        where T : class
    {
        try
        {
            return read();
        }
        catch (Exception e) when (e is ArgumentException or IOException or InvalidDataException or UnauthorizedAccessException or ResultFileException
            or NotSupportedException)
        {
            problems.Add(prefix + e.Message);
            return null;
        }
    }

    /// <summary>
    /// The output folder (not given: the folder of <paramref name="besideFile"/>, or the current one when that is empty).
    /// Checked last: the writability check creates the folder, so it runs only when no other problem was found (a run
    /// with other mistakes creates no folder).
    /// </summary>
    public static string ReadOut(ParseResult parse, Option<string> option, List<string> problems, string? besideFile = null)
    {
        string folder = parse.GetValue(option)
            ?? (besideFile is null ? string.Empty : besideFile.Length > 0 ? Path.GetDirectoryName(Path.GetFullPath(besideFile)) ?? "." : ".");
        if (string.IsNullOrWhiteSpace(folder))
        {
            problems.Add($"{option.Name} needs a folder.");
        }
        else if (problems.Count == 0 && ResultFolder.CheckWritable(folder) is { } why)
        {
            problems.Add($"{option.Name}: {why}");
        }

        return folder;
    }
}
