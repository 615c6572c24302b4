import { useCallback, useEffect, useRef, useState } from 'react';
import { Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyFieldIssues, type FieldIssue } from '../errors';
import {
  checkWithSchema,
  formErrorOutcome,
  recheckChanged,
  valueAt,
  type FormErrorOptions,
  type PlacedError,
} from './formErrors';

/** What a schema form needs: its schema, how to build the schema's input, and the save call. */
export interface SchemaFormOptions<V, S extends z.ZodType, R> extends FormErrorOptions {
  /** The request schema of `@venue/domain` the server validates with too (STYLE point 5). */
  schema: S;
  /** Form values → the schema's input (defaults, number conversions, date formats); default: as is. */
  toInput?: (values: V) => unknown;
  /** The save call with the parsed data; its rejection is mapped onto the form. */
  submit: (data: z.output<S>) => Promise<R>;
  /** After a successful save (close the drawer, show a message). */
  onSaved?: (result: R) => void;
}

/** The form instance plus what the drawer shell shows. */
export interface SchemaForm<V> {
  form: FormInstance<V>;
  /** For `<Form onFinish>`: validate, save, map errors. */
  onFinish: (values: V) => Promise<void>;
  /** For `<Form onFinishFailed>`: shows every schema error at once, also when an inline rule already failed. */
  onFinishFailed: () => void;
  /** The translated message of an error that belongs to no field, or null. */
  rootError: string | null;
  /** Clears the root message (on opening the form again). */
  clearRootError: () => void;
  /** True while the save call runs. */
  saving: boolean;
}

/**
 * The console's one form hook: safe-parses the values with the domain's zod
 * schema (field errors are `validation.<key>` translations), calls `submit`,
 * puts the server's field errors (`ApiError.details`) on their fields and
 * anything else in one translated root message (`errors.<code>`). An error
 * it placed is checked again when its field changes: it clears once the
 * field is valid (a "required" error goes when the field is filled).
 */
export function useSchemaForm<V, S extends z.ZodType, R = unknown>(options: SchemaFormOptions<V, S, R>): SchemaForm<V> {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const [rootError, setRootError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { schema, toInput, submit, onSaved, fieldName, byCode } = options;

  const renamed = (fields: FieldIssue[]) =>
    fieldName ? fields.map((f) => ({ ...f, name: fieldName(f.name) })) : fields;

  // Errors this hook placed, with the field's value then: they clear (or change) once the field is edited.
  const placed = useRef(new Map<string, PlacedError>());
  const place = (fields: FieldIssue[]) => {
    applyFieldIssues(form, fields);
    const values = form.getFieldsValue(true);
    for (const f of fields) {
      if (f.errors.length === 0) placed.current.delete(JSON.stringify(f.name));
      else
        placed.current.set(JSON.stringify(f.name), {
          name: f.name,
          value: JSON.stringify(valueAt(values, f.name) ?? null),
        });
    }
  };
  // Re-renders only when a field with a placed error changes (the selector reads the ref).
  const watched = Form.useWatch((all: V) => [...placed.current.values()].map((p) => valueAt(all, p.name)), {
    form,
    preserve: true,
  });
  useEffect(() => {
    if (placed.current.size === 0) return;
    const values = form.getFieldsValue(true) as V;
    let issues: FieldIssue[] = [];
    try {
      const checked = checkWithSchema(t, schema, toInput ? toInput(values) : values);
      issues = checked.ok ? [] : renamed(checked.fields);
    } catch {
      return; // a half-typed value the form's mapping cannot read yet
    }
    const updates = recheckChanged([...placed.current.values()], values, issues);
    if (updates.length > 0) place(updates);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when a watched value changes
  }, [watched]);

  const onFinish = async (values: V) => {
    setRootError(null);
    const checked = checkWithSchema(t, schema, toInput ? toInput(values) : values);
    if (!checked.ok) {
      place(renamed(checked.fields));
      return;
    }
    setSaving(true);
    try {
      const result = await submit(checked.data);
      onSaved?.(result);
    } catch (e) {
      const outcome = formErrorOutcome(t, e, { fieldName, byCode });
      place(outcome.fields);
      setRootError(outcome.root);
    } finally {
      setSaving(false);
    }
  };

  const onFinishFailed = () => {
    const values = form.getFieldsValue(true) as V;
    const checked = checkWithSchema(t, schema, toInput ? toInput(values) : values);
    if (!checked.ok) place(renamed(checked.fields));
  };

  const clearRootError = useCallback(() => setRootError(null), []);
  return { form, onFinish, onFinishFailed, rootError, clearRootError, saving };
}
