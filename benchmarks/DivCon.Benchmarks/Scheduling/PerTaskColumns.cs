using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace DivCon.Benchmarks.Scheduling;

/// <summary>
/// Mean time divided by the tasks one operation runs (a benchmark's <c>TasksPerOperation</c> property, read from its
/// parameters), so spawn trees of different sizes are comparable.
/// </summary>
internal sealed class NsPerTaskColumn(Func<BenchmarkCase, long> tasksPerOperation) : IColumn
{
    public string Id => nameof(NsPerTaskColumn);

    public string ColumnName => "ns/task";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => "Mean time per operation divided by the tasks it runs (ns)";

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        BenchmarkDotNet.Mathematics.Statistics? stats = summary[benchmarkCase]?.ResultStatistics;
        return stats is null ? "NA" : (stats.Mean / tasksPerOperation(benchmarkCase)).ToString("F1", System.Globalization.CultureInfo.InvariantCulture);
    }
}

/// <summary>
/// ns per task as the slope of mean time over tasks per operation, least squares over every parameter case of the same
/// method (a fixed per-operation cost drops out into the intercept). The same value is shown on each of the method's rows.
/// </summary>
internal sealed class NsPerTaskSlopeColumn(Func<BenchmarkCase, long> tasksPerOperation) : IColumn
{
    public string Id => nameof(NsPerTaskSlopeColumn);

    public string ColumnName => "slope ns/task";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => 1;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => "Least-squares slope of mean time over tasks per operation, across this method's sizes (ns)";

    public bool IsAvailable(Summary summary) => true;

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var points = summary.BenchmarksCases
            .Where(c => c.Descriptor.WorkloadMethod == benchmarkCase.Descriptor.WorkloadMethod && summary[c]?.ResultStatistics is not null)
            .Select(c => (X: (double)tasksPerOperation(c), Y: summary[c]!.ResultStatistics!.Mean))
            .ToArray();
        if (points.Select(p => p.X).Distinct().Count() < 2)
        {
            return "NA";
        }

        double mx = points.Average(p => p.X), my = points.Average(p => p.Y);
        double sxy = points.Sum(p => (p.X - mx) * (p.Y - my)), sxx = points.Sum(p => (p.X - mx) * (p.X - mx));
        return (sxy / sxx).ToString("F1", System.Globalization.CultureInfo.InvariantCulture);
    }
}
