import { useCallback, useState } from 'react';
import { Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { applyFieldIssues, type FieldIssue } from '../errors';
import { checkWithSchema, formErrorOutcome, type FormErrorOptions } from './formErrors';

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
 * anything else in one translated root message (`errors.<code>`).
 */
export function useSchemaForm<V, S extends z.ZodType, R = unknown>(options: SchemaFormOptions<V, S, R>): SchemaForm<V> {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const [rootError, setRootError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { schema, toInput, submit, onSaved, fieldName, byCode } = options;

  const renamed = (fields: FieldIssue[]) =>
    fieldName ? fields.map((f) => ({ ...f, name: fieldName(f.name) })) : fields;

  const onFinish = async (values: V) => {
    setRootError(null);
    const checked = checkWithSchema(t, schema, toInput ? toInput(values) : values);
    if (!checked.ok) {
      applyFieldIssues(form, renamed(checked.fields));
      return;
    }
    setSaving(true);
    try {
      const result = await submit(checked.data);
      onSaved?.(result);
    } catch (e) {
      const outcome = formErrorOutcome(t, e, { fieldName, byCode });
      applyFieldIssues(form, outcome.fields);
      setRootError(outcome.root);
    } finally {
      setSaving(false);
    }
  };

  const onFinishFailed = () => {
    const values = form.getFieldsValue(true) as V;
    const checked = checkWithSchema(t, schema, toInput ? toInput(values) : values);
    if (!checked.ok) applyFieldIssues(form, renamed(checked.fields));
  };

  const clearRootError = useCallback(() => setRootError(null), []);
  return { form, onFinish, onFinishFailed, rootError, clearRootError, saving };
}
