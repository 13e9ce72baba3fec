using System.Text.Json.Serialization;

namespace DivCon.CgroupProbe;

/// <summary>What <c>report</c> prints.</summary>
internal sealed record ProbeReport(
    int BudgetCores,
    string LimitedBy,
    double? QuotaCpus,
    string? QuotaDirectory,
    string? CgroupDirectory,
    int EnvironmentProcessorCount,
    int WorkStealingWorkers,
    string? WorkStealingWarning,
    int MultiProgramWorkers,
    IReadOnlyList<int> MultiProgramProcessors,
    string? MultiProgramWarning,
    IReadOnlyList<string> Describe);

/// <summary>What <c>spin</c> prints: the throttling seen while the workers spun.</summary>
internal sealed record ProbeSpin(int Workers, string? Warning, double ElapsedSeconds, long Periods, long ThrottledPeriods, double ThrottledSeconds, string Source);

/// <summary>What <c>t1</c> prints: every run's wall time, and the throttling over all of them.</summary>
internal sealed record ProbeTimes(string Program, string Size, int Workers, int BudgetCores, IReadOnlyList<double> Seconds, long? ThrottledPeriods, double? ThrottledSeconds);

/// <summary>What <c>t1-quota</c> prints: every run inside and outside the quota, paired by round.</summary>
internal sealed record ProbeQuotaPairs(
    string Program,
    string Size,
    string Group,
    IReadOnlyList<double> InsideSeconds,
    IReadOnlyList<double> OutsideSeconds,
    IReadOnlyList<int> InsideWorkers,
    double MedianPairedRatio,
    double RatioOfMedians,
    long InsideThrottledPeriods,
    double InsideThrottledSeconds);

[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(ProbeReport))]
[JsonSerializable(typeof(ProbeSpin))]
[JsonSerializable(typeof(ProbeTimes))]
[JsonSerializable(typeof(ProbeQuotaPairs))]
internal sealed partial class ProbeJson : JsonSerializerContext;
