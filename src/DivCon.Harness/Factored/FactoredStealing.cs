using System.Globalization;
using DivCon.Metrics;
using DivCon.Scheduling;

namespace DivCon.Harness.Factored;

/// <summary>
/// How the work-stealing schedulers of a factored measurement steal (issue 10): the <see cref="StealingScope"/> and
/// the stealing groups. Groups are one of
/// <list type="bullet">
/// <item><c>detected</c> (default): this machine's last-level cache groups (<see cref="CpuTopology.Detect"/>); an
/// unpinned worker i counts as on the topology's i-th processor. On a machine with one cache group every steal is
/// local and <see cref="StealingScope.CacheGroupFirst"/> behaves as <see cref="StealingScope.All"/>.</item>
/// <item><c>per-worker</c>: every worker alone in its group (a synthetic topology): every steal is remote, and a
/// CacheGroupFirst thief first sweeps its empty group, then widens — the restricted scope's cost with none of its
/// benefit.</item>
/// <item>explicit: worker-index groups such as <c>0,1;2,3</c> (groups separated by <c>;</c>, workers by <c>,</c>) that
/// hold every worker 0 … N−1 of the largest P exactly once; a P-worker scheduler keeps the workers below P (groups
/// left empty are dropped).</item>
/// </list>
/// The same groups are used with both scopes, so local/remote steal counts are comparable between them.
/// </summary>
public sealed record FactoredStealing
{
    /// <summary>The name of the detected groups.</summary>
    public const string DetectedGroups = "detected";

    /// <summary>The name of the one-worker-per-group synthetic groups.</summary>
    public const string PerWorkerGroups = "per-worker";

    private FactoredStealing()
    {
    }

    /// <summary>Every scheduler's default: scope All, detected groups.</summary>
    public static FactoredStealing Default { get; } = new() { Scope = StealingScope.All };

    /// <summary>The stealing scope.</summary>
    public StealingScope Scope { get; private init; }

    /// <summary><see cref="DetectedGroups"/>, <see cref="PerWorkerGroups"/> or the explicit groups' text (normalised).</summary>
    public string Groups { get; private init; } = DetectedGroups;

    /// <summary>The number of last-level cache groups this machine reported, when known (recorded with the result).</summary>
    public int? DetectedCacheGroups { get; init; }

    private IReadOnlyList<IReadOnlyList<int>>? ExplicitGroups { get; init; } // null for detected and per-worker

    /// <summary>
    /// Parses <paramref name="scope"/> (<c>all</c> or <c>cache-group-first</c>) and <paramref name="groups"/>
    /// (<c>detected</c>, <c>per-worker</c> or explicit groups for <paramref name="maxWorkers"/> workers). Every problem
    /// is added to <paramref name="problems"/> (naming the options <c>--stealing</c> and <c>--stealing-groups</c>);
    /// returns null when there was one.
    /// </summary>
    public static FactoredStealing? Parse(string? scope, string? groups, int maxWorkers, List<string> problems)
    {
        ArgumentNullException.ThrowIfNull(problems);
        int before = problems.Count;
        string scopeText = (scope ?? string.Empty).Trim().ToLowerInvariant();
        StealingScope parsedScope = scopeText switch
        {
            "all" => StealingScope.All,
            "cache-group-first" => StealingScope.CacheGroupFirst,
            _ => (StealingScope)(-1),
        };
        problems.AddIf(parsedScope < 0, $"--stealing '{scope}' is not allowed; use all or cache-group-first.");

        string groupsText = (groups ?? string.Empty).Trim().ToLowerInvariant();
        IReadOnlyList<IReadOnlyList<int>>? parsedGroups = null;
        if (groupsText is not (DetectedGroups or PerWorkerGroups))
        {
            parsedGroups = ParseExplicit(groupsText, maxWorkers, problems);
        }

        if (problems.Count > before)
        {
            return null;
        }

        return new FactoredStealing { Scope = parsedScope, Groups = parsedGroups is null ? groupsText : Format(parsedGroups), ExplicitGroups = parsedGroups };
    }

    /// <summary>The explicit groups a <paramref name="workers"/>-worker scheduler gets, or null for detected groups.</summary>
    public IReadOnlyList<IReadOnlyList<int>>? GroupsFor(int workers)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(workers);
        if (Groups == PerWorkerGroups)
        {
            return Enumerable.Range(0, workers).Select(w => (IReadOnlyList<int>)new[] { w }).ToArray();
        }

        return ExplicitGroups?
            .Select(g => (IReadOnlyList<int>)g.Where(w => w < workers).ToArray())
            .Where(g => g.Count > 0)
            .ToArray();
    }

    /// <summary>
    /// The options of a <paramref name="workers"/>-worker scheduler with this stealing (or these groups under
    /// <paramref name="scope"/>), sized against <paramref name="budget"/> (the experiment's one reading; detected by the
    /// scheduler when null).
    /// </summary>
    public WorkStealingSchedulerOptions Options(int workers, string threadName, Func<CpuTopology> topology, CpuBudget? budget = null, StealingScope? scope = null)
    {
        ArgumentNullException.ThrowIfNull(topology);
        IReadOnlyList<IReadOnlyList<int>>? groups = GroupsFor(workers);
        return new WorkStealingSchedulerOptions
        {
            WorkerCount = workers,
            Budget = budget,
            // A measurement at P workers: a compensating worker (a long task, or a throttled one, looks stuck) would
            // make it P + 1.
            CompensateBlocking = false,
            ThreadName = threadName,
            StealingScope = scope ?? Scope,
            StealingGroups = groups,
            // Detected groups in both scopes, so that steals are split into local and remote the same way under All.
            StealingTopology = groups is null ? topology() : null,
        };
    }

    /// <summary>What a result file records of this stealing for schedulers of <paramref name="workerCounts"/> workers.</summary>
    public StealingRecord ToRecord(IEnumerable<int> workerCounts)
    {
        ArgumentNullException.ThrowIfNull(workerCounts);
        return new StealingRecord(Scope == StealingScope.CacheGroupFirst ? "cache-group-first" : "all", Groups, DetectedCacheGroups,
            workerCounts.Select(p => new WorkerGroups(p, GroupsFor(p) is { } g ? Format(g) : Groups)).ToArray());
    }

    /// <summary>Explicit groups as text: <c>0,1;2,3</c>.</summary>
    public static string Format(IReadOnlyList<IReadOnlyList<int>> groups)
    {
        ArgumentNullException.ThrowIfNull(groups);
        return string.Join(";", groups.Select(g => string.Join(",", g.Select(w => w.ToString(CultureInfo.InvariantCulture)))));
    }

    private static IReadOnlyList<IReadOnlyList<int>>? ParseExplicit(string text, int maxWorkers, List<string> problems)
    {
        string allowed = $"use detected, per-worker, or groups of worker indexes 0..{maxWorkers - 1} such as '0;1' (';' between groups, ',' within one)";
        if (text.Length == 0)
        {
            problems.Add($"--stealing-groups needs a value; {allowed}.");
            return null;
        }

        var groups = new List<IReadOnlyList<int>>();
        var seen = new HashSet<int>();
        foreach (string part in text.Split(';'))
        {
            var group = new List<int>();
            foreach (string item in part.Split(','))
            {
                string? problem = !int.TryParse(item.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out int worker)
                    ? $"'{item.Trim()}' is not a worker index; {allowed}."
                    : worker >= maxWorkers ? $"worker {worker} does not exist with at most {maxWorkers} workers; {allowed}."
                    : !seen.Add(worker) ? $"worker {worker} is in more than one place; each worker must be in exactly one group."
                    : null;
                if (problem is not null)
                {
                    problems.Add($"--stealing-groups '{text}': {problem}");
                    return null;
                }

                group.Add(worker);
            }

            groups.Add(group);
        }

        int[] missing = Enumerable.Range(0, maxWorkers).Where(w => !seen.Contains(w)).ToArray();
        if (missing.Length > 0)
        {
            problems.Add($"--stealing-groups '{text}': worker(s) {string.Join(", ", missing)} in no group; the groups must hold every worker 0..{maxWorkers - 1} exactly once.");
            return null;
        }

        return groups;
    }
}
