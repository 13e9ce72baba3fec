namespace DivCon.Harness.Experiments;

/// <summary>How the P processors of a scalability point are chosen (§5.1.3).</summary>
public enum ProcessorSelection
{
    /// <summary><see cref="DivCon.Scheduling.CpuTopology.SelectContiguous"/>: packed into as few cache groups as possible.</summary>
    Contiguous,

    /// <summary><see cref="DivCon.Scheduling.CpuTopology.SelectDispersed"/>: spread over NUMA nodes and cache groups.</summary>
    Dispersed,
}
