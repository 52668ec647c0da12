"""Label Studio's target storage: a folder holding one JSON file per annotation, or per task.

A project's target storage (local files, S3, GCS, Azure: https://labelstud.io/guide/storage) receives each
annotation as it is submitted.  By default each file is one annotation, named by its id (no extension), its
task nested under ``task`` (the task's ``id`` and ``data``, without the other annotations) and ``completed_by``
an object with the user's ``id`` and ``email``; with the "task format" (``FUTURE_SAVE_TASK_TO_STORAGE``), each
file is a task of the JSON export, named ``<task id>.json``, holding every annotation of the task (Label
Studio 1.23's ``io_storages``: ``ExportStorageLink.get_key`` and ``_get_serialized_data``).  Both are read as the
tasks of a JSON export: the annotations of one task, from however many files, are gathered under it.

Not public: :func:`accord.importers._labelstudio.read` reads a folder with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from accord._shared.errors import plural
from accord.importers._common import fail, folder_entries, json_loads, quote, read_text, symlink_note
from accord.importers._labelstudio_common import TOOL

__all__ = ["is_storage_object", "looks_like_storage", "single_annotation", "storage_tasks"]


def is_storage_object(obj: Any) -> bool:
    """An annotation as a target storage writes it: ``result`` and ``completed_by`` beside its ``task``."""
    return isinstance(obj, dict) and isinstance(obj.get("task"), dict) and "result" in obj and "annotations" not in obj


def looks_like_storage(path: Path) -> bool:
    """A folder whose first file (hidden files aside) holds a Label Studio task or a stored annotation."""
    files = [f for f in folder_entries(path, "*", follow_symlinks=False) if not f.name.startswith(".")]
    if not files:
        return False
    try:
        with open(files[0], "rb") as fh:  # a stored annotation or task is small: a larger first file is not one
            obj = json.loads(fh.read(1 << 20).decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return False
    task = isinstance(obj, dict) and isinstance(obj.get("annotations"), list) and "data" in obj
    return task or is_storage_object(obj)


def storage_tasks(path: Path) -> tuple[list[tuple[int, int | None, Any]], list[str]]:
    """The tasks of a target storage folder as the JSON export's records ``(index, line, task)`` (no line: each
    file is one object), and the notes on what was read."""
    skipped: list[Path] = []
    files = [f for f in folder_entries(path, "*", follow_symlinks=False, skipped=skipped) if not f.name.startswith(".")]
    if not files:
        raise fail(TOOL, path, "the folder holds no file (a target storage holds one JSON file per annotation or "
                   "task)")
    tasks: dict[Any, dict[str, Any]] = {}
    seen: set[tuple[Any, Any]] = set()  # (task id, annotation id): a task file and an annotation file both hold it
    n_ann = n_task = repeated = 0
    for f in files:
        obj = json_loads(TOOL, f, read_text(TOOL, f))
        if is_storage_object(obj):
            n_ann += 1
            task = {k: v for k, v in obj["task"].items() if k != "annotations"}
            annotations = [{k: v for k, v in obj.items() if k != "task"}]
        elif isinstance(obj, dict) and isinstance(obj.get("annotations"), list):
            n_task += 1
            task, annotations = {k: v for k, v in obj.items() if k != "annotations"}, obj["annotations"]
        else:
            raise fail(TOOL, f, "not a Label Studio task nor a stored annotation (a target storage file holds a "
                       "task with 'annotations', or an annotation with its 'task' and 'result')")
        if "id" not in task:
            raise fail(TOOL, f, "the task has no 'id'")
        key = json.dumps(task["id"])
        held = tasks.setdefault(key, {**task, "annotations": []})
        for ann in annotations:
            mark = (key, json.dumps(ann.get("id")) if isinstance(ann, dict) and ann.get("id") is not None else None)
            if mark[1] is not None and mark in seen:
                repeated += 1
                continue
            seen.add(mark)
            held["annotations"].append(ann)
    notes = [f"target storage folder: {plural(n_ann, 'annotation file')} and {plural(n_task, 'task file')} "
             f"gathered into {plural(len(tasks), 'task')}"]
    if repeated:
        notes.append(f"{plural(repeated, 'annotation')} held by two files (the same id) read once")
    note = symlink_note(path, skipped)
    if note:
        notes.append(str(note))
    return [(i, None, t) for i, t in enumerate(tasks.values(), start=1)], notes


def single_annotation(path: Path, obj: dict[str, Any]) -> dict[str, Any]:
    """One stored annotation file read alone: the task it nests, with that annotation."""
    if "id" not in obj["task"]:
        raise fail(TOOL, path, f"the annotation's task has no 'id' (keys: {', '.join(map(quote, obj['task']))})")
    return {**{k: v for k, v in obj["task"].items() if k != "annotations"},
            "annotations": [{k: v for k, v in obj.items() if k != "task"}]}
