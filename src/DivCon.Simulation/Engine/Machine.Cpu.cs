using System.Diagnostics;

namespace DivCon.Simulation.Engine;

/// <summary>The OS part: which worker runs on which core, time slices, preemption, context switches.</summary>
internal sealed partial class Machine
{
    private void MakeRunnable(SimWorker w)
    {
        Debug.Assert(w.State == WorkerState.Runnable, "Only a runnable worker asks for a core.");
        if (w.PinnedCore >= 0)
        {
            SimCore core = _cores[w.PinnedCore];
            if (core.Current is null)
            {
                Assign(core, w);
            }
            else
            {
                core.RunQueue.Enqueue(w);
            }

            return;
        }

        if (_freeCores.Count > 0)
        {
            // Prefer the core it last ran on (no cold start), else the most recently freed one.
            int coreId = w.LastCore >= 0 && _freeCores.Contains(w.LastCore) ? w.LastCore : _freeCores[_freeCores.Count - 1];
            _freeCores.Remove(coreId);
            Assign(_cores[coreId], w);
            return;
        }

        _freeRunQueue.Enqueue(w);
    }

    private void Assign(SimCore core, SimWorker w)
    {
        Debug.Assert(core.Current is null, "A core runs one worker at a time.");
        IdleNs += _now - core.IdleSince;
        core.Current = w;
        w.Core = core.Id;
        w.State = WorkerState.Running;
        bool switched = core.LastWorker is not null && core.LastWorker != w;
        if (w.LastCore >= 0 && w.LastCore != core.Id)
        {
            w.NeedsColdStart = true;
        }

        core.LastWorker = w;
        w.LastCore = core.Id;
        if (_timeSliced)
        {
            core.SliceStamp++;
            Schedule(_now + _p.QuantumNs, EventKind.SliceEnd, core.Id, core.SliceStamp);
        }

        if (switched)
        {
            _contextSwitches++;
            if (_p.ContextSwitchNs > 0)
            {
                StartStep(w, StepKind.ContextSwitch, _p.ContextSwitchNs);
                return;
            }
        }

        ResumeOrContinue(w);
    }

    /// <summary>The worker leaves its core (it blocked or was preempted); the core takes the next waiting worker.</summary>
    private void ReleaseCore(SimWorker w)
    {
        SimCore core = _cores[w.Core];
        w.Core = -1;
        core.Current = null;
        core.IdleSince = _now;
        core.SliceStamp++; // the slice in progress ends with its worker
        SimWorker? next = NextFor(core);
        if (next is not null)
        {
            Assign(core, next);
        }
        else if (Arrangement == SchemeArrangement.OversubscribedFree)
        {
            _freeCores.Add(core.Id);
        }
    }

    private SimWorker? NextFor(SimCore core) =>
        core.RunQueue.TryDequeue(out SimWorker? w) || (Arrangement == SchemeArrangement.OversubscribedFree && _freeRunQueue.TryDequeue(out w)) ? w : null;

    private bool HasWaiting(SimCore core) =>
        core.RunQueue.Count > 0 || (Arrangement == SchemeArrangement.OversubscribedFree && _freeRunQueue.Count > 0);

    private void OnSliceEnd(SimCore core, int stamp)
    {
        if (stamp != core.SliceStamp || core.Current is not { } w)
        {
            return;
        }

        if (!HasWaiting(core) || w.Step is StepKind.ContextSwitch or StepKind.None)
        {
            // Nobody waits (or it is still switching in): it keeps the core for another quantum.
            core.SliceStamp++;
            Schedule(_now + _p.QuantumNs, EventKind.SliceEnd, core.Id, core.SliceStamp);
            return;
        }

        // Preempt mid-step: charge what ran, save what is left, go to the back of the queue.
        _preemptions++;
        if (w.Step == StepKind.Task)
        {
            w.SavedLeft = ChargeTaskSoFar(w);
            LeaveMemory(w);
        }
        else
        {
            Charge(w.Step, _now - w.StepStart);
            w.SavedLeft = w.StepEnd - _now;
        }

        w.SavedStep = w.Step;
        w.SavedTask = w.Task;
        w.Step = StepKind.None;
        w.Stamp++;
        w.State = WorkerState.Runnable;
        ReleaseCore(w);
        if (w.PinnedCore >= 0)
        {
            _cores[w.PinnedCore].RunQueue.Enqueue(w);
        }
        else
        {
            MakeRunnable(w);
        }
    }
}
